import { LibosError } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { OBJECT_TYPES, createObjectMemory, payloadByteLength, processNamespace, type ObjectType } from '../src/index.js';

const pid = 'pid_0123456789abcdef';

async function memoryWithProcess() {
  const memory = await createObjectMemory({ namespaces: ['shared'] });
  const own = await memory.openProcessNamespace(pid);
  return { memory, own };
}

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
  } catch (error) {
    if (LibosError.is(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('creating Objects', () => {
  it('returns a frozen Object with a random oid, the trimmed name and creation data', async () => {
    const { memory, own } = await memoryWithProcess();
    const before = Date.now();
    const object = await memory.create({ namespace: own, name: '  notes ', type: 'summary', payload: { content: 'hi' }, createdBy: pid });
    expect(object).toMatchObject({ namespace: 'process:pid_0123456789abcdef', name: 'notes', type: 'summary', label: 'normal' });
    expect(object.oid).toMatch(/^obj_[0-9a-f]{16}$/);
    expect(object.created_by).toBe(pid);
    expect(Date.parse(object.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(object.created_at).toMatch(/Z$/);
    expect(Object.keys(object).sort()).toEqual(['created_at', 'created_by', 'label', 'name', 'namespace', 'oid', 'payload', 'type'].sort());
    expect(await memory.get(own, 'notes')).toBe(object);
    expect(await memory.getByOid(object.oid)).toBe(object);
  });

  it('gives distinct oids', async () => {
    const { memory, own } = await memoryWithProcess();
    const oids = new Set(
      await Promise.all(
        Array.from(
          { length: 200 },
          async (_, index) => (await memory.create({ namespace: own, name: `n${index}`, type: 'artifact', payload: index, createdBy: pid })).oid,
        ),
      ),
    );
    expect(oids.size).toBe(200);
  });

  it('keeps the label it is given', async () => {
    const { memory, own } = await memoryWithProcess();
    expect((await memory.create({ namespace: own, name: 'a', type: 'evidence', payload: 'x', label: 'secret', createdBy: pid })).label).toBe(
      'secret',
    );
  });

  it('accepts every listed type and refuses others', async () => {
    const { memory, own } = await memoryWithProcess();
    for (const type of OBJECT_TYPES) await memory.create({ namespace: own, name: type, type, payload: null, createdBy: pid });
    expect(await memory.list(own)).toHaveLength(OBJECT_TYPES.length);
    expect(
      await codeOf(async () => await memory.create({ namespace: own, name: 'x', type: 'file' as ObjectType, payload: null, createdBy: pid })),
    ).toBe('invalid_object_type');
  });

  it.each(['', '   ', '.', '..', 'a/b', 'a\\b', ' / '])('refuses the name %j', async (name) => {
    const { memory, own } = await memoryWithProcess();
    expect(await codeOf(async () => await memory.create({ namespace: own, name, type: 'artifact', payload: null, createdBy: pid }))).toBe(
      'invalid_name',
    );
  });

  it('refuses what is not plain JSON', async () => {
    const { memory, own } = await memoryWithProcess();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const payload of [cyclic, new Date(), Number.NaN, () => 1, { big: 1n }]) {
      expect(await codeOf(async () => await memory.create({ namespace: own, name: 'x', type: 'artifact', payload, createdBy: pid }))).toBe(
        'invalid_arguments',
      );
    }
    expect(await memory.list(own)).toEqual([]);
  });
});

describe('immutability', () => {
  it('freezes the Object and its payload all the way down and keeps no handle to the input', async () => {
    const { memory, own } = await memoryWithProcess();
    const input = { content: 'a', nested: { list: [1, { deep: true }] } };
    const object = await memory.create({ namespace: own, name: 'frozen', type: 'artifact', payload: input, createdBy: pid });
    input.nested.list.push(2);
    input.content = 'changed';
    expect(object.payload).toEqual({ content: 'a', nested: { list: [1, { deep: true }] } });
    expect(Object.isFrozen(object)).toBe(true);
    const payload = object.payload as { nested: { list: [number, { deep: boolean }] } };
    expect(Object.isFrozen(payload.nested.list[1])).toBe(true);
    expect(() => {
      (payload.nested.list[1] as { deep: boolean }).deep = false;
    }).toThrow(TypeError);
    expect(() => {
      (object as { name: string }).name = 'other';
    }).toThrow(TypeError);
  });

  it('never overwrites or upserts: a second create of a name is name_taken and the first stays', async () => {
    const { memory, own } = await memoryWithProcess();
    const first = await memory.create({ namespace: own, name: 'report', type: 'artifact', payload: 'v1', createdBy: pid });
    expect(await codeOf(async () => await memory.create({ namespace: own, name: ' report', type: 'summary', payload: 'v2', createdBy: pid }))).toBe(
      'name_taken',
    );
    expect(await memory.get(own, 'report')).toBe(first);
    expect(await memory.list(own)).toHaveLength(1);
  });

  it('allows the same name in another namespace', async () => {
    const { memory, own } = await memoryWithProcess();
    const a = await memory.create({ namespace: own, name: 'same', type: 'artifact', payload: 1, createdBy: pid });
    const b = await memory.create({ namespace: 'shared', name: 'same', type: 'artifact', payload: 2, createdBy: pid });
    expect(a.oid).not.toBe(b.oid);
  });

  it('lets exactly one of 50 racing creators of one name win', async () => {
    const { memory } = await memoryWithProcess();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index % 3));
        return await memory.create({ namespace: 'shared', name: 'race', type: 'artifact', payload: { index }, createdBy: `pid_${index}` });
      }),
    );
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.every((outcome) => LibosError.is(outcome.reason, 'name_taken'))).toBe(true);
    expect(await memory.list('shared')).toHaveLength(1);
  });
});

describe('the payload gate', () => {
  it('measures the UTF-8 bytes of the compact JSON', async () => {
    expect(payloadByteLength({ content: 'é' })).toBe(Buffer.byteLength('{"content":"é"}'));
    expect(payloadByteLength('😀')).toBe(6);
  });

  it('refuses a payload over the bound with too_large and stores nothing', async () => {
    const memory = await createObjectMemory({ namespaces: ['n'], maxPayloadBytes: 20 });
    await memory.create({ namespace: 'n', name: 'fits', type: 'artifact', payload: 'x'.repeat(18), createdBy: pid });
    expect(
      await codeOf(async () => await memory.create({ namespace: 'n', name: 'over', type: 'artifact', payload: 'x'.repeat(19), createdBy: pid })),
    ).toBe('too_large');
    expect(await memory.find('n', 'over')).toBeUndefined();
  });
});

describe('namespaces', () => {
  it('has only declared and opened namespaces', async () => {
    const { memory, own } = await memoryWithProcess();
    expect(own).toBe(processNamespace(pid));
    expect(await memory.listNamespaces()).toEqual([own, 'shared']);
    expect(await codeOf(async () => await memory.create({ namespace: 'other', name: 'x', type: 'artifact', payload: 1, createdBy: pid }))).toBe(
      'namespace_not_found',
    );
    expect(await codeOf(async () => await memory.list('process:pid_ffffffffffffffff'))).toBe('namespace_not_found');
    expect(await codeOf(async () => await memory.find('other', 'x'))).toBe('namespace_not_found');
  });

  it.each(['', ' shared', 'a//b', 'a/./b', '../x', 'a/'])('refuses the namespace %j', async (namespace) => {
    const { memory } = await memoryWithProcess();
    expect(await codeOf(async () => await memory.declareNamespace(namespace))).toBe('invalid_namespace');
    expect(await codeOf(async () => await memory.create({ namespace, name: 'x', type: 'artifact', payload: 1, createdBy: pid }))).toBe(
      'invalid_namespace',
    );
  });

  it('opens a process namespace idempotently, keeping its Objects', async () => {
    const { memory, own } = await memoryWithProcess();
    await memory.create({ namespace: own, name: 'kept', type: 'artifact', payload: 1, createdBy: pid });
    expect(await memory.openProcessNamespace(pid)).toBe(own);
    expect((await memory.list(own)).map((object) => object.name)).toEqual(['kept']);
  });

  it('get of a missing name is object_not_found', async () => {
    const { memory, own } = await memoryWithProcess();
    expect(await codeOf(async () => await memory.get(own, 'missing'))).toBe('object_not_found');
  });
});

describe('memory views', () => {
  it('are untouched by creation and change only by attach and detach', async () => {
    const { memory, own } = await memoryWithProcess();
    const view = memory.view(pid);
    const object = await memory.create({ namespace: own, name: 'a', type: 'artifact', payload: 1, createdBy: pid });
    expect(await view.list()).toEqual([]);
    expect(await view.attach(object.oid)).toBe(object);
    await view.attach(object.oid);
    expect(await view.list()).toEqual([object]);
    expect(memory.view(pid)).toBe(view);
    expect(await memory.view('pid_other').list()).toEqual([]);
    expect(view.detach(object.oid)).toBe(true);
    expect(view.detach(object.oid)).toBe(false);
    expect(view.has(object.oid)).toBe(false);
    expect(await codeOf(async () => await view.attach('obj_0000000000000000'))).toBe('object_not_found');
  });
});
