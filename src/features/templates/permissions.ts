import { AppError } from '../../http/problem.js';
import { requireAdmin, type Caller } from '../../http/caller.js';
import type { TemplateLevel } from '../../accounts/tables.js';

/**
 * Who may write which level (interface document 2.9). Who may *see* a template is decided by
 * the store's queries; these run only on templates the caller can see, so a refusal here (403)
 * never reveals anything the caller could not read anyway.
 */
export function requireMayWrite(
  caller: Caller,
  level: TemplateLevel,
): asserts level is Exclude<TemplateLevel, 'provider'> {
  if (level === 'provider') {
    throw new AppError(
      'forbidden',
      'Provider templates come with the service and cannot be created, changed or deleted',
    );
  }
  if (level === 'organization') {
    requireAdmin(caller, 'create, change or delete organization templates');
  }
}
