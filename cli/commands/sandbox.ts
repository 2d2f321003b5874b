import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../../engine/entry/data.js';
import { EngineError } from '../../engine/entry/errors.js';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { EXIT_OK, type Command } from '../command.js';
import { parseFlags } from '../args.js';

export const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'print the twelve never-metered sandbox addresses',
  usage: [
    'propintel sandbox [--data DIR]',
    '',
    'Prints the sandbox addresses of a dataset as JSON, in the shape of GET /api/v1/property/sandbox:',
    '{ "addresses": [{ "address", "state", "lat", "lng", "note" }] }.',
    '',
    `  --data DIR   dataset directory (default: the sample world in ${defaultDataDir()}, generated when absent)`,
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, { data: { type: 'string' } });
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
    const catalogue = await loadCatalogue(dir);
    if (!catalogue.sandbox) throw new EngineError('NOT_FOUND', `${dir}: the catalogue names no sandbox address list`, { file: join(dir, 'catalogue.json') });
    const doc = JSON.parse(await readFile(join(dir, catalogue.sandbox), 'utf8')) as { addresses: unknown[] };
    io.stdout(`${JSON.stringify({ addresses: doc.addresses }, null, 2)}\n`);
    return EXIT_OK;
  },
};
