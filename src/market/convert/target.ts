import fs from 'node:fs';
import path from 'node:path';

/**
 * Why a converter must not write `target` (a file, or with `folder` a folder of files), or
 * undefined: writing over its own source would destroy the data it reads, and a file's folder
 * must exist (a folder target is created).
 */
export function targetProblem(
  source: string,
  target: string,
  options: { folder?: boolean } = {},
): string | undefined {
  if (path.resolve(source) === path.resolve(target))
    return 'the target must be another file than the source';
  if (!options.folder && !fs.existsSync(path.dirname(path.resolve(target))))
    return `the folder of ${target} does not exist`;
  if (!options.folder && fs.existsSync(target) && fs.statSync(target).isDirectory())
    return `${target} is a folder; name a file to write`;
  return undefined;
}
