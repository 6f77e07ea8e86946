import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime, selectTools } from '../src/index.js';

describe('selectTools', () => {
  it('follows the process tool list, keeps a subset in the given order and replaces descriptions', async () => {
    const runtime = await createRuntime({ provider: createMemfsTestbed().provider });
    const process = runtime.spawn();
    expect(selectTools(process).map((tool) => tool.name)).toEqual(runtime.tools.map((tool) => tool.name));
    const picked = selectTools(process, { tools: ['read_text_file', 'read_directory'], descriptions: { read_directory: 'List it.' } });
    expect(picked.map((tool) => [tool.name, tool.description])).toEqual([
      ['read_text_file', runtime.tools.find((tool) => tool.name === 'read_text_file')?.description],
      ['read_directory', 'List it.'],
    ]);
    expect(runtime.tools.find((tool) => tool.name === 'read_directory')?.description).not.toBe('List it.');
  });

  it('refuses a name the process does not have, a repeated name and an empty description', async () => {
    const runtime = await createRuntime({ provider: createMemfsTestbed().provider });
    const process = runtime.spawn();
    expect(() => selectTools(process, { tools: ['read_txt_file'] })).toThrow(/There is no tool named "read_txt_file"/);
    expect(() => selectTools(process, { descriptions: { nope: 'x' } })).toThrow(/"nope"/);
    expect(() => selectTools(process, { tools: ['read_text_file', 'read_text_file'] })).toThrow(/twice/);
    expect(() => selectTools(process, { descriptions: { read_text_file: ' ' } })).toThrow(/non-empty/);
  });
});
