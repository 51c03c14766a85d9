import type { Command } from 'commander';
import {
  createOrganization,
  findOrganizationByName,
  listOrganizations,
} from '../../accounts/organizations.js';
import { CliError, print, withAccounts } from '../context.js';

export const ORG_NAME_MAX_LENGTH = 200;

export function registerOrgCommands(program: Command): void {
  const orgs = program.command('orgs').description('manage organizations');

  orgs
    .command('create')
    .argument('<name>', 'organization name (unique)')
    .description('create an organization')
    .action((rawName: string) =>
      withAccounts(async (db) => {
        const name = rawName.trim();
        if (name.length === 0 || name.length > ORG_NAME_MAX_LENGTH) {
          throw new CliError(`organization name must be 1-${ORG_NAME_MAX_LENGTH} characters`);
        }
        if (await findOrganizationByName(db, name)) {
          throw new CliError(`organization "${name}" already exists`);
        }
        const org = await createOrganization(db, name);
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
