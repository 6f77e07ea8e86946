import {
  LibosError,
  providerErrors,
  type FileSystemProviderV1,
  type ProviderCallOptions,
  type ProviderCapabilities,
  type WorkspacePath,
} from '@libos/core';
import { createCallGate, type CallGate } from './call-gate.js';
import { checkSignal } from './check-signal.js';
import { hostErrorCode } from './host-error-code.js';
import { PROVIDER_METHODS, type ProviderMethodName } from './provider-methods.js';

// Called without the gate (`checkPath`), holding it their own way (`openDirectory`, `hostPath`), or its closing.
const PASSED_THROUGH = ['checkPath', 'openDirectory', 'hostPath', 'close'] as const;

/** The name of one method `defineProvider` runs through the gate: path first, its options (with the signal) last. */
export type GatedMethodName = Exclude<ProviderMethodName, (typeof PASSED_THROUGH)[number]>;

/** The methods `defineProvider` runs through the gate: the interface's methods (one list) but the passed-through four. */
export const GATED_METHODS: readonly GatedMethodName[] = PROVIDER_METHODS.filter(
  (name): name is GatedMethodName => !(PASSED_THROUGH as readonly string[]).includes(name),
);

type Method<Name extends GatedMethodName> = NonNullable<FileSystemProviderV1[Name]>;

/** One operation: the method's own arguments after the context `enter` made; it may answer at once or later. */
export type ProviderOperation<Context, Name extends GatedMethodName> = (
  context: Context,
  ...args: Parameters<Method<Name>>
) => Awaited<ReturnType<Method<Name>>> | ReturnType<Method<Name>>;

type Operations<Context> = { readonly [Name in GatedMethodName]: ProviderOperation<Context, Name> };
// The methods the interface requires; the others a provider may leave out, and then it lacks them.
type RequiredName = { [Name in GatedMethodName]-?: undefined extends FileSystemProviderV1[Name] ? never : Name }[GatedMethodName];

/** The operations table: every required method of the interface, and any optional ones the provider has. */
export type ProviderOperations<Context> = Pick<Operations<Context>, RequiredName> & Partial<Omit<Operations<Context>, RequiredName>>;

/** What a call is, as `enter` and `mapError` see it. */
export interface ProviderCall {
  readonly operation: GatedMethodName;
  readonly signal: AbortSignal | undefined;
}

/** A provider as its author writes it: what it is, what each call needs, and the operations. */
export interface ProviderDefinition<Context, Defined extends ProviderOperations<Context>> {
  readonly name: string;
  readonly capabilities: ProviderCapabilities;
  readonly workspaceMaxBytes?: number;
  /** The call gate, when something else must enter it too (a staging area, an `open()`); a fresh one otherwise. */
  readonly gate?: CallGate;
  /**
   * Makes what each operation gets, inside the gate and after the signal check; an `enter` that
   * waits (a connection, a migration) is followed by a second signal check. It may refuse the call
   * (a removed root). Without `enter` the operations get `undefined`.
   */
  readonly enter?: (path: WorkspacePath, call: ProviderCall) => Context | Promise<Context>;
  /**
   * The host error mapping: what a thrown value that is not a LibosError becomes. Without it, a
   * `provider_failure` naming the host code, effect `unknown` (the call may have changed things).
   */
  readonly mapError?: (error: unknown, path: WorkspacePath, call: ProviderCall) => LibosError;
  readonly operations: Defined;
  /** Passed through as they are: they take no gate (`checkPath`) or hold it their own way. */
  readonly checkPath?: FileSystemProviderV1['checkPath'];
  readonly openDirectory?: FileSystemProviderV1['openDirectory'];
  readonly hostPath?: FileSystemProviderV1['hostPath'];
  /** Frees what the provider holds, once, after `close` has waited for the calls in flight. */
  readonly release?: () => void | Promise<void>;
}

/** The provider `defineProvider` makes: each method of the table is there for certain. */
export type DefinedProvider<Defined> = FileSystemProviderV1 & { readonly [Name in keyof Defined & GatedMethodName]-?: Method<Name> };

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Makes a provider from an operations table: each call enters the gate (after `close`, the
 * contract's `provider_failure`, effect `none`), refuses an aborted signal before anything is
 * touched, gets its context from `enter`, and has any host error mapped by `mapError`. So an author
 * writes the operations; the closing, cancelling and error rules are the kit's, the same for all.
 */
export function defineProvider<Context = undefined, Defined extends ProviderOperations<Context> = ProviderOperations<Context>>(
  definition: ProviderDefinition<Context, Defined>,
): DefinedProvider<Defined> {
  const gate = definition.gate ?? createCallGate(definition.name);
  const mapError =
    definition.mapError ??
    ((error: unknown, path: WorkspacePath) => providerErrors.failure(path, hostErrorCode(error) ?? null, { effect: 'unknown', cause: error }));

  const gated = (operation: GatedMethodName, body: (context: Context, ...args: unknown[]) => unknown) => {
    return (path: WorkspacePath, ...rest: unknown[]) => {
      const last = rest.at(-1);
      const signal = typeof last === 'object' && last !== null ? (last as ProviderCallOptions).signal : undefined;
      const call: ProviderCall = { operation, signal };
      return gate.run(path, async () => {
        try {
          checkSignal(signal, path);
          const entered = definition.enter?.(path, call) as Context | Promise<Context>;
          let context = entered;
          if (isPromise(entered)) {
            context = await entered;
            checkSignal(signal, path);
          }
          return await body(context as Context, path, ...rest);
        } catch (error) {
          throw LibosError.is(error) ? error : mapError(error, path, call);
        }
      });
    };
  };

  const provider: Record<string, unknown> = {
    specificationVersion: 'v1',
    name: definition.name,
    capabilities: definition.capabilities,
  };
  if (definition.workspaceMaxBytes !== undefined) provider.workspaceMaxBytes = definition.workspaceMaxBytes;
  for (const name of GATED_METHODS) {
    const body = (definition.operations as Partial<Record<GatedMethodName, (context: Context, ...args: unknown[]) => unknown>>)[name];
    if (body !== undefined) provider[name] = gated(name, body);
  }
  if (definition.checkPath !== undefined) provider.checkPath = definition.checkPath;
  if (definition.openDirectory !== undefined) provider.openDirectory = definition.openDirectory;
  if (definition.hostPath !== undefined) provider.hostPath = definition.hostPath;
  provider.close = () => gate.close(definition.release);
  return provider as DefinedProvider<Defined>;
}
