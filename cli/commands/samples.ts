/** `propintel samples`: regenerates the canned samples from the sample world (datasets/samples). */
import { resolve } from 'node:path';
import { makeSamples } from '../../datasets/make-samples.js';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { samplesDir } from '../../engine/entry/property.js';
import { EXIT_OK, type Command } from '../command.js';
import { parseFlags } from '../args.js';

export const samplesCommand: Command = {
  name: 'samples',
  summary: 'regenerate the canned /api/v1/property/sample responses',
  usage: ['propintel samples [--data DIR] [--out DIR]', '', `Runs the engine on sample-world addresses and writes the seven sample files (default ${samplesDir()}).`].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, { data: { type: 'string' }, out: { type: 'string' } });
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
    const files = await makeSamples(dir, resolve(values.out ?? samplesDir()));
    io.stdout(`${files.map((f) => `wrote ${f}`).join('\n')}\n`);
    return EXIT_OK;
  },
};
