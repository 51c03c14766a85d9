import type { DuckDBConnection } from '@duckdb/node-api';
import { databaseIdentity } from './duck.js';

/** Snapshots whose answers are kept: the current one and those requests may still read. */
const SNAPSHOTS = 4;

/**
 * Answers computed once per snapshot file and key: a snapshot never changes, so an answer that
 * depends on it alone (a country's first offer day, a region's net rent share) need not be paid
 * for again. Kept for the latest few snapshot files; a database open for writing is always asked,
 * and a failed computation (deadline, interruption) is asked again next time.
 */
export function snapshotMemo<V>(): (
  db: DuckDBConnection,
  key: string,
  compute: () => Promise<V>,
) => Promise<V> {
  const bySnapshot = new Map<string, Map<string, Promise<V>>>();
  return async (db, key, compute) => {
    const snapshot = (await databaseIdentity(db)).readOnlyFile;
    if (snapshot === null) return compute();
    let answers = bySnapshot.get(snapshot);
    if (!answers) {
      answers = new Map();
      bySnapshot.set(snapshot, answers);
      if (bySnapshot.size > SNAPSHOTS) bySnapshot.delete(bySnapshot.keys().next().value as string);
    }
    const known = answers.get(key);
    if (known) return known;
    const answer = compute();
    const ofSnapshot = answers;
    ofSnapshot.set(key, answer);
    answer.catch(() => ofSnapshot.delete(key));
    return answer;
  };
}
