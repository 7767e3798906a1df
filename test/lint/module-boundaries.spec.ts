import { join } from 'node:path';
import { RuleTester } from 'eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require('../../tools/eslint/module-boundaries.cjs');

const ROOT = join(__dirname, '..', '..');
const file = (path: string) => join(ROOT, path);
/** A file whose import the rule refuses, with the message it must give (and the rule's options, if any). */
const refused = (path: string, code: string, messageId: string, options?: unknown[]) => ({
  filename: file(path),
  code,
  errors: [{ messageId }],
  ...(options ? { options } : {}),
});
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

// The projects and their layer tags are the repository's own (read from project.json).
tester.run('module-boundaries', rule, {
  valid: [
    { filename: file('libs/search/src/x.ts'), code: "import { a } from '@memex/domain';" },
    { filename: file('libs/db/src/x.ts'), code: "import { a } from '@memex/hygiene';" },
    { filename: file('libs/feature-mcp/src/x.ts'), code: "import { a } from '@memex/feature-brain';" },
    { filename: file('apps/memex/src/x.ts'), code: "import { a } from '@memex/feature-events';" },
    { filename: file('apps/brain-api/src/x.ts'), code: "import { a } from './brain-api.module';" },
    { filename: file('libs/feature-enrichment/src/x.ts'), code: "import { a } from './embeddings/poller';" },
    { filename: file('libs/db/src/x.ts'), code: "import { a } from 'kysely';" },
    {
      filename: file('apps/dashboard/src/x.ts'),
      code: "import { a } from '../../../libs/domain/src/item-kinds';",
      options: [{ relativeInto: ['layer:pure'] }],
    },
  ],
  invalid: [
    refused('apps/memex/src/main.ts', "import { BrainApiModule } from '../../brain-api/src';", 'app'),
    refused('libs/feature-brain/src/x.ts', "export * from '../../../apps/brain-api/src';", 'app'),
    refused('libs/search/src/x.ts', "import { MemoryItemRepository } from '@memex/db';", 'layer'),
    refused('libs/db/src/x.ts', "import { SearchService } from '@memex/feature-search';", 'layer'),
    refused('libs/server/src/x.ts', "const db = require('../../db/src');", 'relative'),
    refused('libs/feature-items/src/x.ts', "const m = import('../../feature-brain/src/brain.service');", 'relative'),
    refused('apps/dashboard/src/x.ts', "import { a } from '../../../libs/db/src';", 'relative', [
      { relativeInto: ['layer:pure'] },
    ]),
  ],
});
