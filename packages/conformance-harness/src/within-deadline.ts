/** Settles as `action` does, or rejects with `message` once `milliseconds` have passed; the timer never outlives the race. */
export async function withinDeadline<T>(action: () => Promise<T>, milliseconds: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), milliseconds);
  });
  try {
    return await Promise.race([action(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
