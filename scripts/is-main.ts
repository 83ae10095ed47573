import path from 'node:path';

/**
 * Whether the module at `filename` (its `import.meta.filename`) is the one node was asked to run,
 * not one imported by another: a script or bench that others import runs its work only then.
 */
export function isMain(filename: string): boolean {
  return !!process.argv[1] && path.resolve(process.argv[1]) === path.resolve(filename);
}
