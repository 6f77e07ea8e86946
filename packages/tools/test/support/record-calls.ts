/** Wraps `target` so the name of every method called on it is recorded before the method runs. */
export function recordCalls<T extends object>(target: T): { wrapped: T; calls: string[] } {
  const calls: string[] = [];
  const wrapped = new Proxy(target, {
    get(inner, property, receiver) {
      const value = Reflect.get(inner, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...parameters: unknown[]) => unknown).apply(inner, args);
      };
    },
  });
  return { wrapped, calls };
}
