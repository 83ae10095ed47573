/**
 * JSON text made once for a value many answers share (a room's cached Room view,
 * lib/domain/room-snapshots.ts): `serializeOnce` keeps the value's text beside it, and
 * `toJsonText` writes that text as is wherever the value is a member of the object it writes,
 * instead of serializing the same 8 KB again on every join. The value itself stays a plain
 * object (frozen by its owner: its text must never go out of date).
 */
const texts = new WeakMap<object, string>();

/** Makes and keeps `value`'s JSON text; returns it. */
export function serializeOnce(value: object): string {
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}

/** JSON.stringify(value), with the kept text of any member registered by serializeOnce. */
export function toJsonText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'toJSON' in value) {
    return JSON.stringify(value);
  }
  const own = texts.get(value);
  if (own !== undefined) return own;
  const record = value as Record<string, unknown>;
  let kept = false;
  for (const key in record) {
    const member = record[key];
    if (member !== null && typeof member === 'object' && texts.has(member)) {
      kept = true;
      break;
    }
  }
  if (!kept) return JSON.stringify(value);
  const parts: string[] = [];
  for (const key of Object.keys(record)) {
    const member = record[key];
    const text = member !== null && typeof member === 'object' ? texts.get(member) : undefined;
    const written = text ?? JSON.stringify(member);
    // As JSON.stringify does: a member that has no JSON (undefined, a function) is left out.
    if (written !== undefined) parts.push(`${JSON.stringify(key)}:${written}`);
  }
  return `{${parts.join(',')}}`;
}
