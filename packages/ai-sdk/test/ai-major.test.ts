import * as loaded from 'ai';
import { expect, it } from 'vitest';

// The run for `ai` 7 (vitest.ai7.config.ts) loads it in place of `ai`; this says it really did, so
// a passing run is a proof about the major it names and not about the 6 installed beside it (were
// the alias not applied, `ai` would be 6 and `ai-7` another module).
it('runs against the ai package its project names', async () => {
  const named = process.env.LIBOS_AI_PACKAGE ?? 'ai';
  const expected = (await import(/* @vite-ignore */ named)) as typeof loaded;
  expect(loaded.generateText).toBe(expected.generateText);
});
