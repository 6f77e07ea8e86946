import { expect, it, onTestFinished } from 'vitest';
import { createPostgresApprovalState } from '../src/index.js';
import { describePostgres, freshSchema, postgresUrl } from './postgres.js';

async function open(schema: string) {
  const state = await createPostgresApprovalState({ connectionString: postgresUrl, schema });
  onTestFinished(() => state.close());
  return state;
}

describePostgres('the approvals state in PostgreSQL', () => {
  it('gives every host the same seal key, made once', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    expect(a.key.byteLength).toBe(32);
    expect(Buffer.from(b.key).equals(Buffer.from(a.key))).toBe(true);
  });

  it('consumes a requestState once across every host, however many race for it', async () => {
    const schema = freshSchema();
    const [a, b] = [await open(schema), await open(schema)];
    const expiresAt = Date.now() + 600_000;
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? a : b).store.consume('state-1', expiresAt)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await b.store.consume('state-2', expiresAt)).toBe(true);
    expect(await a.store.consume('state-2', expiresAt)).toBe(false);
  });
});
