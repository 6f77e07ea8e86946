import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditedRuntime, callRecordsOf, openLog } from './support.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('apply_patch in the audit trail', () => {
  it("is one record naming every path of the patch, with each file's effect and no content", async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, { files: { 'a.txt': 'one\n', 'old.txt': 'gone\n', 'm.txt': 'move me\n' } });
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '-one',
      '+two',
      '*** Add File: new.txt',
      '+secret words',
      '*** Delete File: old.txt',
      '*** Update File: m.txt',
      '*** Move to: moved/m.txt',
      '*** End Patch',
    ].join('\n');
    const outcome = await runtime.spawn().call('apply_patch', { patch });
    expect(outcome).toMatchObject({ ok: true });
    await runtime.close();
    await log.close();
    const [record] = callRecordsOf(log.path);
    expect(record!.tool).toBe('apply_patch');
    expect([...record!.paths].sort()).toEqual(['a.txt', 'm.txt', 'moved/m.txt', 'new.txt', 'old.txt']);
    const effects = new Map(record!.effects!.map((effect) => [effect.path, effect]));
    expect(effects.get('a.txt')).toMatchObject({ before_sha256: sha('one\n'), after_sha256: sha('two\n') });
    expect(effects.get('new.txt')).toMatchObject({ before_sha256: null, after_sha256: sha('secret words\n') });
    expect(effects.get('old.txt')).toMatchObject({ before_sha256: sha('gone\n'), after_sha256: null });
    expect(effects.get('moved/m.txt')).toMatchObject({ after_sha256: sha('move me\n') });
    expect(JSON.stringify(record)).not.toContain('secret words');
  });
});
