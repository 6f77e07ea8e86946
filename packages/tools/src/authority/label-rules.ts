import { LABELS, ROOT_PATH, pathKey, type Label, type WorkspacePath } from '@libos/core';

/** One `labels` or `sinks` rule reduced to what matching needs. */
export interface LabelRule {
  readonly path: WorkspacePath;
  readonly tree: boolean;
  readonly label: Label;
}

interface RulesAt {
  exact?: Label;
  tree?: Label;
}

/**
 * Builds a lookup over `labels` or `sinks` rules. A rule matches its exact path, or with `tree` that
 * path and everything below. The longest matching path wins; among rules at that path `prefer`
 * picks the highest label (for labels) or the lowest (for clearances). No match: `fallback`
 * (`normal` unless given). Paths are compared by `pathKey`, as grants are: a rule covers every
 * spelling of its names that a reader could not tell apart.
 */
export function createLabelLookup<Fallback extends Label | null = 'normal'>(
  rules: readonly LabelRule[],
  prefer: 'highest' | 'lowest',
  fallback: Fallback = 'normal' as Fallback,
): (path: WorkspacePath) => Label | Fallback {
  const pick = (a: Label | undefined, b: Label): Label => {
    if (a === undefined) return b;
    const higher = LABELS.indexOf(a) > LABELS.indexOf(b) ? a : b;
    return prefer === 'highest' ? higher : higher === a ? b : a;
  };
  const byPath = new Map<string, RulesAt>();
  for (const rule of rules) {
    const key = pathKey(rule.path);
    const at = byPath.get(key) ?? {};
    if (rule.tree) at.tree = pick(at.tree, rule.label);
    else at.exact = pick(at.exact, rule.label);
    byPath.set(key, at);
  }

  return (asked) => {
    const path = pathKey(asked);
    const own = byPath.get(path);
    if (own !== undefined) {
      const both = own.exact === undefined ? own.tree : own.tree === undefined ? own.exact : pick(own.exact, own.tree);
      if (both !== undefined) return both;
    }
    if (path !== ROOT_PATH) {
      // Ancestors from the nearest up: the first tree rule found is the longest match.
      for (let slash = path.lastIndexOf('/'); slash !== -1; slash = path.lastIndexOf('/', slash - 1)) {
        const tree = byPath.get(path.slice(0, slash))?.tree;
        if (tree !== undefined) return tree;
      }
      const rootTree = byPath.get(ROOT_PATH)?.tree;
      if (rootTree !== undefined) return rootTree;
    }
    return fallback;
  };
}
