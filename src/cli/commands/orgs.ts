import type { Command } from 'commander';
import {
  createOrganization,
  findOrganizationByName,
  listOrganizations,
  OrganizationNameTaken,
} from '../../accounts/organizations.js';
import { FILLED_LINE_PATTERN, ONE_LINE_PATTERN } from '../../http/schemas.js';
import { limits } from '../../limits.js';
import { CliError, print, withAccounts } from '../context.js';

/** Names are shown on one line, as titles are: no control or bidirectional formatting characters. */
const ONE_LINE = new RegExp(ONE_LINE_PATTERN, 'u');
/** And one that shows: a name of characters that show nothing is blank, as a title is. */
const FILLED_LINE = new RegExp(FILLED_LINE_PATTERN, 'u');

export function registerOrgCommands(program: Command): void {
  const orgs = program.command('orgs').description('manage organizations');

  orgs
    .command('create')
    .argument('<name>', 'organization name (unique)')
    .description('create an organization')
    .action((rawName: string) =>
      withAccounts(async (db) => {
        const name = rawName.trim();
        const max = limits.organizations.nameChars;
        const chars = Array.from(name).length;
        if (chars === 0 || chars > max) {
          throw new CliError(`organization name must be 1-${String(max)} characters`);
        }
        if (!ONE_LINE.test(name)) {
          throw new CliError(
            'organization name may not contain control or bidirectional formatting characters',
          );
        }
        if (!FILLED_LINE.test(name)) throw new CliError('organization name must not be blank');
        if (await findOrganizationByName(db, name)) {
          throw new CliError(`organization "${name}" already exists`);
        }
        const org = await createOrganization(db, name).catch((error: unknown) => {
          // Created by someone else since the check above.
          throw error instanceof OrganizationNameTaken ? new CliError(error.message) : error;
        });
        print(`created organization "${org.name}" (${org.id})`);
      }),
    );

  orgs
    .command('list')
    .description('list organizations')
    .action(() =>
      withAccounts(async (db) => {
        for (const org of await listOrganizations(db)) print(`${org.id}  ${org.name}`);
      }),
    );
}
