import { VERSION } from '../../engine/entry/version.js';
import { EXIT_OK, type Command } from '../command.js';
import { parseFlags } from '../args.js';

export const versionCommand: Command = {
  name: 'version',
  summary: 'print the propintel version',
  usage: 'propintel version\n\nPrints the version of propintel and of Node.js it runs on.',
  async run(args, io) {
    parseFlags(args, {});
    io.stdout(`propintel ${VERSION} (node ${process.versions.node})\n`);
    return EXIT_OK;
  },
};
