import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { accountStoreUnavailable } from '../accounts/store-unavailable.js';
import { ConfigError } from '../config.js';
import { registerAvmCommands } from './commands/avm.js';
import { registerMarketCommands } from './commands/market.js';
import { registerOrgCommands } from './commands/orgs.js';
import { registerServeCommand } from './commands/serve.js';
import { registerTokenCommands } from './commands/tokens.js';
import { registerUserCommands } from './commands/users.js';
import { CliError, UsageError } from './context.js';

// From src/cli/ and from dist/cli/ alike, the package's own manifest.
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export function buildProgram(): Command {
  const program = new Command('propdata')
    .description('propdata: real-estate market data API')
    .version(version, '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerOrgCommands(program);
  registerUserCommands(program);
  registerTokenCommands(program);
  registerMarketCommands(program);
  registerAvmCommands(program);
  return program;
}

/**
 * A reader that stops early (`| head`) closes the pipe: the command's work (a file being
 * written, an import) goes on to its end, and what nobody reads is dropped, not a crash.
 */
function ignoreClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

/** Runs the CLI; mistakes at the terminal print one line and exit 1 (usage errors: 2). */
export async function main(argv: string[]): Promise<void> {
  ignoreClosedPipes();
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`propdata: ${error.message}\n`);
      process.exitCode = error instanceof UsageError ? 2 : 1;
    } else if (accountStoreUnavailable(error)) {
      // Not a fault of the command: the database is full, starting, or away. One line, and
      // the command can simply be run again.
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        `propdata: the account database cannot take the command now (${reason}); try again\n`,
      );
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `propdata: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  }
}
