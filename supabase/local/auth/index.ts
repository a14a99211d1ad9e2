import type { ApiFactory } from '../context.ts';

/** Placeholder until the auth API lands: answers 501 so the gateway can mount it. */
export const createAuthApi: ApiFactory = () => async (_req, res) => {
  res.writeHead(501, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message: 'not implemented yet' }));
};
