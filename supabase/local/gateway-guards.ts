// auth/ still imports the guards from this path; the auth split moves that import to
// ./gateway/gateway-guards.ts and deletes this file.
export { holdsUnstorableText, jsonTooDeep } from './gateway/gateway-guards.ts';
