import type { FileSystemProviderV1 } from '@libos/core';

// The keys of `Provider` whose values are functions, optional methods included.
type MethodNames<Provider> = {
  [Key in keyof Provider]-?: NonNullable<Provider[Key]> extends (...args: never[]) => unknown ? Key : never;
}[keyof Provider];

/** The name of every method of `FileSystemProviderV1`, optional ones included. */
export type ProviderMethodName = MethodNames<FileSystemProviderV1>;

/**
 * `true` when `List` names every method of `Provider`, else the names it lacks: so a method added
 * to the interface and not to a wrapper's list is a type error, not a method silently dropped.
 */
export type ListsEveryMethod<Provider, List extends readonly PropertyKey[]> = [Exclude<MethodNames<Provider>, List[number]>] extends [never]
  ? true
  : Exclude<MethodNames<Provider>, List[number]>;

/** Every method of `FileSystemProviderV1`, the one list `wrapProvider` forwards. */
export const PROVIDER_METHODS = [
  'stat',
  'listDirectory',
  'readFile',
  'writeFile',
  'makeDirectory',
  'deleteFile',
  'deleteDirectory',
  'rename',
  'appendFile',
  'copyFile',
  'readFileRange',
  'openDirectory',
  'searchTree',
  'checkPath',
  'hostPath',
  'close',
] as const satisfies readonly ProviderMethodName[];

// The compiler's check of the list above: adding a method to the interface fails the build here.
const complete: ListsEveryMethod<FileSystemProviderV1, typeof PROVIDER_METHODS> = true;
void complete;
