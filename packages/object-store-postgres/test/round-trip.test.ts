import { expect, it } from 'vitest';
import { objectFor } from './objects.js';
import { describePostgres, freshSchema, testStore } from './postgres.js';

// Every text a workspace file can hold, including what jsonb and text columns cannot.
const TEXTS: ReadonlyArray<readonly [string, string]> = [
  ['NUL', 'a\u0000b\u0000'],
  ['a lone BOM', '\uFEFF'],
  ['a BOM then text', '\uFEFFhello'],
  ['line and paragraph separators', 'a\u2028b\u2029c'],
  ['CR, LF and CRLF', 'a\rb\nc\r\nd'],
  ['every C0 control and DEL', Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('') + '\u007F'],
  ['astral characters and combining marks', '𝄞 e\u0301 👩‍👩‍👧'],
  ['bidi controls', '\u202Eabc\u202C\u2066x\u2069'],
  ['noncharacters', '\uFFFE\uFFFF\u{10FFFF}'],
  ['backslashes and quotes', '\\"\\u0000\'\\\\'],
  ['the empty text', ''],
];

describePostgres('every text survives the round trip exactly', () => {
  it.each(TEXTS)('%s, as content, name and namespace, read back by another host', async (_label, text) => {
    const schema = freshSchema();
    const store = await testStore(schema);
    const other = await testStore(schema);
    // Wrapped in letters: a namespace or a name may not have surrounding whitespace, "/" or "\\".
    const target = `shared/x${text.replaceAll('/', '_')}x`;
    await store.declareNamespace(target);
    const name = `n${text.replaceAll('/', '_').replaceAll('\\', '_')}n`;
    const payload = { kind: 'workspace_text_file', content: text, [text]: text };
    const [created, options] = objectFor(target, name, payload);
    await store.create(created, options);
    const read = await other.get(target, name);
    expect(read).toEqual(created);
    expect(JSON.stringify(read?.payload)).toBe(JSON.stringify(payload));
    expect((read?.payload as { content: string }).content).toBe(text);
    expect(await other.getByOid(created.oid)).toEqual(created);
    expect(await other.listNamespaces()).toContain(target);
    expect(await other.listNames(target)).toEqual([name]);
  });

  it('a 16 MiB text (the payload bound) comes back byte for byte', async () => {
    const store = await testStore(freshSchema());
    await store.declareNamespace('shared');
    const maxPayloadBytes = 16_777_216;
    const unit = 'a\u0000\uFEFF\u2028é𝄞\n';
    const envelope = JSON.stringify({ content: '' }).length;
    // Fill the payload's JSON up to the bound exactly: each unit is 19 JSON bytes in UTF-8.
    const unitBytes = Buffer.byteLength(JSON.stringify(unit).slice(1, -1));
    const content = unit.repeat(Math.floor((maxPayloadBytes - envelope) / unitBytes));
    const payload = { content };
    const [object, options] = objectFor('shared', 'big', payload);
    await store.create(object, options);
    const read = await store.get('shared', 'big');
    expect((read?.payload as { content: string }).content === content).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(read?.payload))).toBeGreaterThan(maxPayloadBytes - unitBytes);
    expect((await store.usage()).bytes).toBe(Buffer.byteLength(JSON.stringify(payload)));
  });

  it('a lone surrogate in a payload string survives (its JSON escapes it)', async () => {
    const store = await testStore(freshSchema());
    await store.declareNamespace('shared');
    const payload = { content: 'x\uD800y\uDFFF' };
    const [object, options] = objectFor('shared', 'lone', payload);
    await store.create(object, options);
    expect((await store.get('shared', 'lone'))?.payload).toEqual(payload);
  });
});

describePostgres('names far longer than a btree entry', () => {
  it('a 100,000-character namespace and Object name, and a 1024-unit ledger key, are kept and unique', async () => {
    const store = await testStore(freshSchema());
    const namespace = `shared/${'é'.repeat(100_000)}`;
    const name = '名'.repeat(100_000);
    await store.declareNamespace(namespace);
    const [object, options] = objectFor(namespace, name, 'long');
    await store.create(object, options);
    expect(await store.get(namespace, name)).toEqual(object);
    expect(await store.get(namespace, `${name}x`)).toBeUndefined();
    await expect(store.create(...objectFor(namespace, name, 'again'))).rejects.toMatchObject({ code: 'name_taken' });
    expect(await store.listNamespaces()).toEqual([namespace]);
    const key = '€'.repeat(1024);
    expect(await store.spendUses(key, 2, 2)).toBe(true);
    expect(await store.spendUses(key, 1, 2)).toBe(false);
    expect(await store.spentUses(key)).toBe(2);
    expect(await store.dropNamespace(namespace)).toBe(1);
  });
});
