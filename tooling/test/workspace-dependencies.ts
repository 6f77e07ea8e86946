import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each workspace package's run-time dependencies on the others (`dependencies`, `peerDependencies`,
 * `optionalDependencies`; tests use more), by directory name, without the `@libos/` scope, sorted.
 */
export function workspaceDependencies(root: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  for (const area of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, area))) {
      const file = join(root, area, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
      const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies });
      packages.set(
        name,
        dependencies
          .filter((dependency) => dependency.startsWith('@libos/'))
          .map((dependency) => dependency.slice('@libos/'.length))
          .sort(),
      );
    }
  }
  return packages;
}
