import type { Command } from 'commander';
import type { Context } from '../context.js';

/** A command's work: returns its exit code (0 when nothing is returned). */
export type Action = (ctx: Context, command: Command) => Promise<number | void>;

/** What main.ts hands every command group: a way to turn an Action into a commander action. */
export interface App {
  action(run: Action): (...params: unknown[]) => Promise<void>;
}

/** Positional arguments as commander parsed them (variadic ones arrive as arrays). */
export const positional = (command: Command) => command.processedArgs as unknown[];
