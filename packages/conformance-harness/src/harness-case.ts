/**
 * What a case needs, one shape for both kits: capabilities the subject must declare (a capability
 * counts as declared unless it is `false` or absent), optional methods it must have, and optional
 * fixtures the factory must provide. A subject lacking any of it skips the case, with the reason.
 */
export interface Requirements<Capability extends string = string, Method extends string = string, Fixture extends string = string> {
  readonly capabilities?: readonly Capability[];
  readonly methods?: readonly Method[];
  readonly fixtures?: readonly Fixture[];
}

/** One conformance check: stable id `<group> > <name>`, its requirements and its body. */
export interface HarnessCase<Context, Needs extends Requirements = Requirements> {
  readonly id: string;
  readonly group: string;
  readonly name: string;
  readonly requires: Needs;
  /** How many times the run's per-case deadline this case may take (1 unless it says more). */
  readonly timeoutScale: number;
  run(context: Context): Promise<void>;
}

/** Makes a case whose id derives from its group and name; a name may not hold the ` > ` separator. */
export function defineHarnessCase<Context, Needs extends Requirements>(
  group: string,
  name: string,
  run: (context: Context) => Promise<void>,
  requires: Needs,
  timeoutScale = 1,
): HarnessCase<Context, Needs> {
  if (name.includes(' > ')) throw new Error(`A case name may not contain " > ": ${JSON.stringify(name)}.`);
  return { id: `${group} > ${name}`, group, name, requires, timeoutScale, run };
}

/** The cases as given, after checking that no two share an id (a stable id is how a case is skipped or run alone). */
export function uniqueCases<Case extends { readonly id: string }>(cases: readonly Case[]): readonly Case[] {
  const seen = new Set<string>();
  for (const testCase of cases) {
    if (seen.has(testCase.id)) throw new Error(`Two conformance cases share the id ${JSON.stringify(testCase.id)}.`);
    seen.add(testCase.id);
  }
  return cases;
}
