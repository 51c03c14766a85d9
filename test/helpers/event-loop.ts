/** Counts the event loop's turns (its check phases) until `stop` is called. */
export function countTurns(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    turns: () => turns,
    stop: () => {
      running = false;
    },
  };
}
