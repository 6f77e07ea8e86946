import type { HarnessCase, Requirements } from './harness-case.js';
import { withinDeadline } from './within-deadline.js';

/** How one case ended: failures carry what was thrown, skips say which requirement was missing. */
export type CaseOutcome =
  | { readonly status: 'passed' }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: unknown };

/** What a factory receives: a place to register cleanups, run after the case once the subject is closed. */
export interface FactoryContext {
  onCleanup(cleanup: () => void | Promise<void>): void;
}

/** Makes what one case runs against; runs once per case. */
export type HarnessFactory<UnderTest> = (context: FactoryContext) => UnderTest | Promise<UnderTest>;

/** Something the harness closes after every case: a provider, a store. */
export interface Closable {
  close(): Promise<void>;
}

/** How a kit plugs its subject into the runner. */
export interface HarnessBinding<UnderTest, Subject extends Closable, Context, Needs extends Requirements = Requirements> {
  /** The provider or store inside what the factory returned. */
  subject(underTest: UnderTest): Subject;
  /** Before the body: a skip reason or a failure, or undefined to run the case. */
  check(testCase: HarnessCase<Context, Needs>, underTest: UnderTest): CaseOutcome | undefined;
  /**
   * The context the case body gets. `subject` is the subject seen through a watch on `close()`, so
   * the harness knows whether the case closed it; `onCleanup` registers the kit's own undo work
   * (a second store it opened, a temporary directory), run before the subject closes.
   */
  context(underTest: UnderTest, hooks: { readonly subject: Subject; onCleanup(cleanup: () => void | Promise<void>): void }): Context;
}

/** Options of one run. */
export interface RunHarnessOptions {
  /** A case still running after this long (times its `timeoutScale`) fails, so a subject that blocks cannot hang the run. */
  readonly timeoutMs: number;
}

/**
 * Runs one case against a fresh subject from `factory`, inside or outside a vitest test. Whatever
 * happens, it then runs the kit's cleanups, closes the subject (unless the case already closed it;
 * closing twice is not every interface's promise) and runs the factory's cleanups, each list last
 * registered first. A cleanup or a close that throws fails a case that had passed.
 */
export async function runHarnessCase<UnderTest, Subject extends Closable, Context, Needs extends Requirements>(
  testCase: HarnessCase<Context, Needs>,
  factory: HarnessFactory<UnderTest>,
  binding: HarnessBinding<UnderTest, Subject, Context, Needs>,
  options: RunHarnessOptions,
): Promise<CaseOutcome> {
  const factoryCleanups: Array<() => void | Promise<void>> = [];
  const kitCleanups: Array<() => void | Promise<void>> = [];
  let outcome: CaseOutcome = { status: 'passed' };
  let subject: Subject | undefined;
  let closedByCase = false;
  try {
    const underTest = await factory({ onCleanup: (cleanup) => void factoryCleanups.push(cleanup) });
    subject = binding.subject(underTest);
    const decided = binding.check(testCase, underTest);
    if (decided !== undefined) outcome = decided;
    else {
      const watched = watchClose(subject, () => {
        closedByCase = true;
      });
      const context = binding.context(underTest, { subject: watched, onCleanup: (cleanup) => void kitCleanups.push(cleanup) });
      const timeoutMs = options.timeoutMs * testCase.timeoutScale;
      await withinDeadline(
        () => testCase.run(context),
        timeoutMs,
        `${testCase.id}: still running after ${timeoutMs} ms (a call blocked or never settled).`,
      );
    }
  } catch (error) {
    outcome = { status: 'failed', error };
  }
  const owned = subject;
  const cleanups = [
    ...kitCleanups.reverse(),
    ...(owned === undefined ? [] : [() => (closedByCase ? undefined : owned.close())]),
    ...factoryCleanups.reverse(),
  ];
  for (const cleanup of cleanups) {
    try {
      await cleanup();
    } catch (error) {
      if (outcome.status !== 'failed') outcome = { status: 'failed', error };
    }
  }
  return outcome;
}

// A view of the subject whose close() is noted. The proxy's target is an empty stand-in, so a frozen
// subject works too (a proxy of it could not hand out bound methods), and methods are bound to the
// subject itself, so a class with private fields works through the view as it does directly.
function watchClose<Subject extends Closable>(subject: Subject, closed: () => void): Subject {
  const close = () => {
    closed();
    return subject.close();
  };
  return new Proxy({} as Subject, {
    get(_, key) {
      if (key === 'close') return close;
      const value: unknown = Reflect.get(subject, key, subject);
      return typeof value === 'function' ? value.bind(subject) : value;
    },
    has: (_, key) => key in subject,
    ownKeys: () => Reflect.ownKeys(subject),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(subject, key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
}
