/** Text of a value for failure messages and leak checks; bytes are shown as Latin-1 so any content shows. */
export function describeValue(value: unknown, limit = 300): string {
  const text =
    JSON.stringify(value, (_key, item: unknown) =>
      item instanceof Uint8Array ? `bytes(${item.length}):${Buffer.from(item).toString('latin1')}` : item,
    ) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** A thrown value as text: `Name: message` for an Error. */
export function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
}
