import type { Command } from 'commander';
import { findOrganizationByName } from '../../accounts/organizations.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import {
  createUser,
  findUserByUsername,
  listUsers,
  normalizeUsername,
  USERNAME_PATTERN,
  UsernameTaken,
} from '../../accounts/users.js';
import { CliError, print, withAccounts } from '../context.js';

interface CreateUserOptions {
  org: string;
  username: string;
  password: string;
  admin?: boolean;
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('manage users');

  users
    .command('create')
    .description('create a user in an organization')
    .requiredOption('--org <name>', 'organization the user belongs to')
    .requiredOption('--username <username>', 'login name (3-64 of a-z 0-9 . _ @ -)')
    .requiredOption('--password <password>', `password (${PASSWORD_MIN_LENGTH}+ characters)`)
    .option('--admin', 'make the user an admin of the organization', false)
    .action((options: CreateUserOptions) =>
      withAccounts(async (db) => {
        const username = normalizeUsername(options.username);
        if (!USERNAME_PATTERN.test(username)) {
          throw new CliError(
            'username must be 3-64 characters of a-z 0-9 . _ @ - (starting with a letter or digit)',
          );
        }
        if (
          options.password.length < PASSWORD_MIN_LENGTH ||
          options.password.length > PASSWORD_MAX_LENGTH
        ) {
          throw new CliError(
            `password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`,
          );
        }
        const org = await findOrganizationByName(db, options.org.trim());
        if (!org) throw new CliError(`organization "${options.org}" does not exist`);
        if (await findUserByUsername(db, username)) {
          throw new CliError(`username "${username}" is taken`);
        }
        const user = await createUser(db, {
          organizationId: org.id,
          username,
          password: options.password,
          isAdmin: options.admin === true,
        }).catch((error: unknown) => {
          // Created by someone else since the check above.
          throw error instanceof UsernameTaken ? new CliError(error.message) : error;
        });
        print(
          `created ${user.is_admin ? 'admin' : 'user'} "${user.username}" in "${org.name}" (${user.id})`,
        );
      }),
    );

  users
    .command('list')
    .description('list users')
    .action(() =>
      withAccounts(async (db) => {
        for (const user of await listUsers(db)) {
          print(
            `${user.id}  ${user.username}  ${user.organization_name}${user.is_admin ? '  admin' : ''}`,
          );
        }
      }),
    );
}
