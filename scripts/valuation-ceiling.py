#!/usr/bin/env python3
"""How far a learner can get on the DVF Paris sales with what a valuation request carries.

A check outside the service (README "Valuation model", "How far these data go"): it asks
whether an MdAPE target is within reach of coordinates, property type, living area, rooms and
date at all, by giving a flexible learner more than the service has. Needs pandas, scipy and
scikit-learn (Debian: `apt-get install python3-pandas python3-sklearn`); not part of the tests.

    python3 scripts/valuation-ceiling.py ../shared/data/dvf-paris/dvf-paris-2020-2024.csv.gz \
        --split-date 2024-01-01 [--end-date 2024-01-01] [--keep 0.2 --seed 7] [--sample-out F]

`--sample-out F` writes the sales kept (after `--end-date` and `--keep`) in the input's columns,
for `propdata convert dvf` and `propdata avm backtest --file` to run on the same sales.

Reported, on the sales from the split date on with coordinates and 10–2,000 m²:
- kNN-10: the README's time-adjusted baseline (10 nearest of the type, area within x/÷ 1.6,
  moved by a city-wide quarterly median index, never extrapolated), from the earlier sales;
- stack: gradient boosting (absolute loss) on coordinates, log area, rooms, area per room, type,
  the time-adjusted medians of the 5/10/20/50 nearest, of the 10 nearest of any size within
  x/÷ 3, of the sales at the same point (within 3 m) and their number, and the distances to the
  10th and 30th nearest sale, fitted on the earlier sales (their features from the others);
- in-period kNN-10 and stack: every sale of the held-out period valued from all other sales,
  the later ones and those of its own quarter included, with the true quarterly index (5-fold
  cross-validation for the stack). This sees more than any valuation can: a ceiling.
"""
import argparse
import sys

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree
from sklearn.ensemble import HistGradientBoostingRegressor

LAT0 = 48.86  # Paris: the metric projection's reference latitude


def load(path, end, keep, seed):
    df = pd.read_csv(path)
    df = df.dropna(subset=["longitude", "latitude"])
    df = df[pd.to_datetime(df.date_mutation) < end].copy()
    if keep < 1:
        df = df.sample(frac=keep, random_state=seed)
    date = pd.to_datetime(df.date_mutation)
    df["date"] = date
    df["area"] = df.surface_reelle_bati
    df["ly"] = np.log(df.valeur_fonciere / df.area)
    df["q"] = date.dt.year * 4 + (date.dt.month - 1) // 3
    df["x"] = df.longitude * np.cos(np.radians(LAT0)) * 111320
    df["y"] = df.latitude * 110540
    df["house"] = (df.type_local != "Appartement").astype(int)
    df["rooms"] = df.nombre_pieces_principales
    return df.reset_index(drop=True)


def quarterly_index(train):
    """Median log price per m² per quarter; later quarters take the last level, gaps the one before."""
    levels = train.groupby("q").ly.median()
    full = levels.reindex(range(levels.index.min(), levels.index.max() + 1)).ffill()

    def at(q):
        return full.reindex(np.clip(q, full.index.min(), full.index.max())).values

    return at


def neighbour_medians(train, cases, k, ratio, exclude_self):
    """Median time-adjusted log price per m² of the k nearest training sales of the type and size."""
    out = np.full(len(cases), np.nan)
    for house in (0, 1):
        a = train[train.house == house]
        b = cases[cases.house == house]
        if len(a) == 0 or len(b) == 0:
            continue
        _, nearest = cKDTree(a[["x", "y"]].values).query(b[["x", "y"]].values, k=min(400, len(a)))
        areas, adjusted, ids = a.area.values, a.adj.values, a.index.values
        for row, near in zip(b.itertuples(), nearest):
            ok = (areas[near] >= row.area / ratio) & (areas[near] <= row.area * ratio)
            if exclude_self:
                ok &= ids[near] != row.Index
            chosen = near[ok][:k]
            if len(chosen):
                out[row.Index] = np.median(adjusted[chosen])
    return out


def features(train, cases, exclude_self):
    f = {f"knn{k}": neighbour_medians(train, cases, k, 1.6, exclude_self) for k in (5, 10, 20, 50)}
    f["knn10_any_size"] = neighbour_medians(train, cases, 10, 3.0, exclude_self)
    tree = cKDTree(train[["x", "y"]].values)
    same, count = [], []
    for j, near in enumerate(tree.query_ball_point(cases[["x", "y"]].values, r=3)):
        near = [i for i in near if not (exclude_self and i == j)]
        count.append(len(near))
        same.append(np.median(train.adj.values[near]) if near else np.nan)
    f["same_point"], f["same_point_n"] = np.array(same), np.array(count)
    # The 10th and 30th nearest other sale: a training sale finds itself first.
    distances, _ = tree.query(cases[["x", "y"]].values, k=31)
    first = 1 if exclude_self else 0
    f["d10"], f["d30"] = distances[:, 9 + first], distances[:, 29 + first]
    f["x"], f["y"] = cases.x.values, cases.y.values
    f["log_area"] = np.log(cases.area.values)
    f["rooms"] = cases.rooms.values
    f["area_per_room"] = cases.area.values / np.maximum(cases.rooms.values, 1)
    f["house"] = cases.house.values
    return pd.DataFrame(f)


def learner():
    return HistGradientBoostingRegressor(
        loss="absolute_error", max_iter=600, learning_rate=0.05, max_leaf_nodes=31,
        min_samples_leaf=40, random_state=0,
    )


def mdape(predicted_log, true_log):
    return 100 * np.nanmedian(np.abs(np.exp(predicted_log - true_log) - 1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--split-date", required=True)
    p.add_argument("--end-date", default="2100-01-01")
    p.add_argument("--keep", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--sample-out")
    a = p.parse_args()
    df = load(a.file, a.end_date, a.keep, a.seed)
    if a.sample_out:
        columns = pd.read_csv(a.file, nrows=0).columns
        df[list(columns)].to_csv(a.sample_out, index=False)
    # Valued: sales of 10–2,000 m², as in the backtest; its baselines rest on every earlier sale.
    held_out = ((df.date >= a.split_date) & (df.area >= 10) & (df.area <= 2000)).values
    train = df[df.date < a.split_date].reset_index(drop=True)
    cases = df[held_out].reset_index(drop=True)
    index = quarterly_index(train)
    train["adj"] = train.ly - index(train.q.values)
    level = index(cases.q.values)
    print(f"{len(train)} training sales, {len(cases)} valued", file=sys.stderr)

    knn = neighbour_medians(train, cases, 10, 1.6, False) + level
    print("forward: features", file=sys.stderr)
    model = learner().fit(features(train, train, True), train.adj.values)
    stack = model.predict(features(train, cases, False)) + level

    print("in-period: features", file=sys.stderr)
    every = df.copy()
    true_level = every.groupby("q").ly.transform("median").values
    every["adj"] = every.ly - true_level
    knn_in = neighbour_medians(every, every, 10, 1.6, True) + true_level
    x = features(every, every, True)
    fold = np.random.default_rng(1).integers(0, 5, len(every))
    stack_in = np.zeros(len(every))
    for k in range(5):
        print(f"in-period: fold {k + 1}/5", file=sys.stderr)
        fitted = learner().fit(x[fold != k], every.adj.values[fold != k])
        stack_in[fold == k] = fitted.predict(x[fold == k]) + true_level[fold == k]

    truth, truth_in = cases.ly.values, every.ly.values[held_out]
    print(f"MdAPE on {len(cases)} sales from {a.split_date} (keep {a.keep:g}, seed {a.seed})")
    print(f"  forward    kNN-10 {mdape(knn, truth):5.2f}%   stack {mdape(stack, truth):5.2f}%")
    print(
        f"  in-period  kNN-10 {mdape(knn_in[held_out], truth_in):5.2f}%"
        f"   stack {mdape(stack_in[held_out], truth_in):5.2f}%"
    )


if __name__ == "__main__":
    main()
