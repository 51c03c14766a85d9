import type { Command } from 'commander';
import { findOrganizationByName } from '../../accounts/organizations.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import type { AccountDb } from '../../accounts/database.js';
import type { UserRow } from '../../accounts/tables.js';
import {
  createUser,
  findUserByUsername,
  listUsers,
  normalizeUsername,
  updateUser,
  USERNAME_PATTERN,
  UsernameTaken,
  type UserChange,
} from '../../accounts/users.js';
import { CliError, print, UsageError, withAccounts } from '../context.js';
import { deleteUserCovers } from '../../features/covers/store.js';

/** The password's length rule, or a CliError. */
function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new CliError(`password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`);
  }
}

/** The user of a username, or a CliError. */
export async function userNamed(db: AccountDb, username: string): Promise<UserRow> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new CliError(`user "${normalizeUsername(username)}" does not exist`);
  return user;
}

/** Applies `change` to the user named `username` and says what it did. */
async function changeUser(
  db: AccountDb,
  username: string,
  change: UserChange,
  done: string,
): Promise<void> {
  if (change.password !== undefined) checkPassword(change.password);
  const user = await userNamed(db, username);
  const { revokedTokens } = await updateUser(db, user.id, change);
  const revoked =
    revokedTokens > 0
      ? `; revoked ${String(revokedTokens)} token${revokedTokens === 1 ? '' : 's'}`
      : '';
  print(`${done} "${user.username}"${revoked}`);
}

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
        checkPassword(options.password);
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
            `${user.id}  ${user.username}  ${user.organization_name}${user.is_admin ? '  admin' : ''}${user.disabled_at ? `  disabled ${user.disabled_at}` : ''}`,
          );
        }
      }),
    );

  users
    .command('update')
    .description("change a user's admin flag or password (a new password revokes login tokens)")
    .requiredOption('--username <username>', 'the user')
    .option('--admin', 'make the user an admin of the organization')
    .option('--no-admin', 'make the user a regular user')
    .option('--password <password>', `a new password (${PASSWORD_MIN_LENGTH}+ characters)`)
    .action((options: { username: string; admin?: boolean; password?: string }) =>
      withAccounts(async (db) => {
        const change: UserChange = {
          ...(options.admin === undefined ? {} : { isAdmin: options.admin }),
          ...(options.password === undefined ? {} : { password: options.password }),
        };
        if (Object.keys(change).length === 0) {
          throw new UsageError('say what to change: --admin, --no-admin or --password');
        }
        await changeUser(db, options.username, change, 'updated');
      }),
    );

  users
    .command('disable')
    .description("refuse the user's logins and revoke all their tokens (someone who left)")
    .requiredOption('--username <username>', 'the user')
    .action((options: { username: string }) =>
      withAccounts((db) => changeUser(db, options.username, { disabled: true }, 'disabled')),
    );

  users
    .command('clear-covers')
    .description(
      "delete a user's own covers, both sides (a leaver's files still count in the organization's storage)",
    )
    .requiredOption('--username <username>', 'the user')
    .action((options: { username: string }) =>
      withAccounts(async (db) => {
        const user = await userNamed(db, options.username);
        const { count, bytes } = await deleteUserCovers(db, user.id);
        print(
          `deleted ${String(count)} cover${count === 1 ? '' : 's'} (${bytes.toLocaleString('en-US')} bytes) of "${user.username}"`,
        );
      }),
    );

  users
    .command('enable')
    .description('let a disabled user log in again (revoked tokens stay revoked)')
    .requiredOption('--username <username>', 'the user')
    .action((options: { username: string }) =>
      withAccounts((db) => changeUser(db, options.username, { disabled: false }, 'enabled')),
    );
}
