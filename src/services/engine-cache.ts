// Engines are built once per distinct configuration: a loaded whisper model stays
// loaded between notes, and a changed setting builds a new one.
export function engineCache<T>() {
  const made = new Map<string, T>();
  return (key: string, make: () => T): T => {
    let value = made.get(key);
    if (value === undefined) {
      value = make();
      // A bound, not a policy: configurations rarely number more than a few.
      if (made.size > 50) made.clear();
      made.set(key, value);
    }
    return value;
  };
}
