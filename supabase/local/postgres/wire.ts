/** The bits of the Postgres wire protocol the PGlite server reads and writes. */
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/** Frontend messages that leave Postgres at ReadyForQuery (startup messages have no type byte). */
export function endsExchange(message: Uint8Array): boolean {
  const type = message[0];
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}

function frame(type: number, body: Buffer = Buffer.alloc(0)): Uint8Array {
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([header, body]));
}

export const ROLLBACK_MESSAGE = frame(QUERY, Buffer.from('ROLLBACK\0', 'utf8'));
/** PGlite's own user: connections that log in as it need no switch. */
export const SUPERUSER = 'postgres';
const PROTOCOL_3 = 196608;

/** The `user` of a StartupMessage (length, protocol 3.0, then name/value C strings), or null. */
export function startupUser(message: Uint8Array): string | null {
  const buffer = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  if (buffer.length < 8 || buffer[0] !== 0 || buffer.readInt32BE(4) !== PROTOCOL_3) return null;
  const parts = buffer.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'user') return parts[i + 1] || null;
  }
  return null;
}

/**
 * The same StartupMessage logging in as PGlite's superuser. PGlite takes the startup's `user` as
 * the session's authenticated user, and one such login would leave the whole shared session
 * without its superuser; the queue switches roles itself instead.
 */
export function startupAsSuperuser(message: Uint8Array): Uint8Array {
  const buffer = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  const parts = buffer.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'user') parts[i + 1] = SUPERUSER;
  }
  const body = Buffer.from(parts.join('\0'), 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(PROTOCOL_3, 4);
  body.copy(out, 8);
  return new Uint8Array(out);
}

export function setAuthorization(role: string): Uint8Array {
  const quoted = `"${role.replace(/"/g, '""')}"`;
  return frame(QUERY, Buffer.from(`SET SESSION AUTHORIZATION ${quoted}\0`, 'utf8'));
}

/** Whether a backend answer holds an ErrorResponse ('E') message. */
export function hasError(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= buffer.length; at += 1 + buffer.readInt32BE(at + 1)) {
    if (buffer[at] === 0x45) return true;
  }
  return false;
}
export const SYNC_MESSAGE = frame(SYNC);

/** An ErrorResponse: severity ERROR, the SQLSTATE and the message. */
export function errorResponse(sqlstate: string, message: string): Uint8Array {
  const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`, 'utf8');
  return frame(
    0x45,
    Buffer.concat([
      field('S', 'ERROR'),
      field('V', 'ERROR'),
      field('C', sqlstate),
      field('M', message),
      Buffer.from([0]),
    ]),
  );
}
