import { memfs } from 'memfs';
import { describe, expect, it } from 'vitest';

// Canaries for the memfs 4.80.1 behaviours the provider works around (listed in the README, Why memfs).
// When one fails after a memfs upgrade, re-read the recipe it justifies before changing the pin.
describe('memfs 4.80.1 behaviours the provider relies on avoiding', () => {
  const volume = () => {
    const { fs } = memfs({}, '/');
    fs.mkdirSync('/d');
    fs.writeFileSync('/d/target', 'T');
    return fs;
  };

  it('rename onto an existing name leaves the parent child counter too high', () => {
    const fs = volume();
    fs.writeFileSync('/d/tmp', 'x');
    fs.renameSync('/d/tmp', '/d/target');
    fs.unlinkSync('/d/target');
    expect(fs.readdirSync('/d')).toEqual([]);
    expect(() => fs.rmdirSync('/d')).toThrow(expect.objectContaining({ code: 'ENOTEMPTY' }));
  });

  it('rmSync of a link deletes the link target', () => {
    const fs = volume();
    fs.symlinkSync('target', '/d/link');
    fs.rmSync('/d/link');
    expect(fs.lstatSync('/d/target', { throwIfNoEntry: false })).toBeUndefined();
  });

  it('readdir sorts by UTF-16 unit, O_NOFOLLOW guards only the last component', () => {
    const fs = volume();
    fs.writeFileSync('/d/\u{1F600}', '');
    fs.writeFileSync('/d/\uFF5E', '');
    expect(fs.readdirSync('/d')).toEqual(['target', '\u{1F600}', '\uFF5E']);
    fs.symlinkSync('/d', '/dirlink');
    const fd = fs.openSync('/dirlink/target', fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    fs.closeSync(fd);
  });
});
