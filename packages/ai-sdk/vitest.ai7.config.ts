import { mergeConfig } from 'vitest/config';
import { libosProject } from '../../tooling/vitest/project.js';

// The same tests again with `ai` 7 in place of 6 (the dev dependency `ai-7` is `npm:ai@7`), the
// adapter's sources included: the peer range claims no major these two runs do not prove. The
// README example runs as its own process on the `ai` it finds, so it is left to the first run.
export default mergeConfig(libosProject('ai-sdk (ai 7)'), {
  resolve: { alias: [{ find: /^ai(\/test)?$/, replacement: 'ai-7$1' }] },
  test: { exclude: ['test/example.test.ts'], env: { LIBOS_AI_PACKAGE: 'ai-7' } },
});
