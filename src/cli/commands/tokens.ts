import type { Command } from 'commander';
import { issueToken, listTokens, revokeTokens, type RevokeTarget } from '../../accounts/tokens.js';
import { CliError, print, UsageError, withAccounts } from '../context.js';
import { parseDuration } from '../duration.js';
import { userNamed } from './users.js';

const DEFAULT_API_TOKEN_TTL = '90d';

interface RevokeOptions {
  id?: string;
  username?: string;
  all?: boolean;
}

export function registerTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description('manage API tokens');

  tokens
    .command('create')
    .description('create a long-lived API token for a user; the token is the last line printed')
    .requiredOption('--username <username>', 'user the token acts as')
    .option('--ttl <duration>', 'lifetime: 45s, 90m, 12h, 30d, 2w or never', DEFAULT_API_TOKEN_TTL)
    .option('--label <label>', 'a note to recognise the token by')
    .action((options: { username: string; ttl: string; label?: string }) =>
      withAccounts(async (db) => {
        const ttlSeconds = parseDuration(options.ttl);
        if (ttlSeconds === undefined) {
          throw new CliError(
            `--ttl "${options.ttl}" is not a duration like 30d, 12h or never, of at most 100 years (5218w)`,
          );
        }
        const user = await userNamed(db, options.username);
        if (user.disabled_at !== null) {
          throw new CliError(`user "${user.username}" is disabled (propdata users enable)`);
        }
        const token = await issueToken(db, {
          userId: user.id,
          kind: 'api',
          ttlSeconds,
          ...(options.label === undefined ? {} : { label: options.label }),
        });
        print(`token ${token.id} for "${user.username}", expires ${token.expiresAt ?? 'never'}`);
        print(token.secret);
      }),
    );

  tokens
    .command('list')
    .description("list a user's tokens (ids and state, never the secrets)")
    .requiredOption('--username <username>', 'whose tokens')
    .action((options: { username: string }) =>
      withAccounts(async (db) => {
        const user = await userNamed(db, options.username);
        const now = new Date().toISOString();
        for (const t of await listTokens(db, user.id)) {
          const state = t.revoked_at
            ? 'revoked'
            : t.expires_at !== null && t.expires_at <= now
              ? 'expired'
              : 'active';
          print(
            `${t.id}  ${t.kind}  ${state}  expires ${t.expires_at ?? 'never'}  ${t.label ?? ''}`.trimEnd(),
          );
        }
      }),
    );

  tokens
    .command('revoke')
    .description('revoke a token (by its value or id), or all tokens of a user')
    .argument('[token]', 'the token itself')
    .option('--id <id>', 'the token id shown by `tokens list`')
    .option('--username <username>', 'with --all: every token of this user')
    .option('--all', "revoke all of the user's tokens", false)
    .action((secret: string | undefined, options: RevokeOptions) =>
      withAccounts(async (db) => {
        const given = [secret !== undefined, options.id !== undefined, options.all === true];
        if (given.filter(Boolean).length !== 1) {
          throw new UsageError('give exactly one of: a token, --id ID, or --username U --all');
        }
        let target: RevokeTarget;
        if (secret !== undefined) target = { secret };
        else if (options.id !== undefined) target = { id: options.id };
        else {
          if (options.username === undefined) throw new CliError('--all needs --username');
          target = { userId: (await userNamed(db, options.username)).id };
        }
        const count = await revokeTokens(db, target);
        if (count === 0 && !('userId' in target)) {
          throw new CliError('no such active token');
        }
        print(`revoked ${count} token${count === 1 ? '' : 's'}`);
      }),
    );
}
