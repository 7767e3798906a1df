import { join } from 'node:path';
import { RuleTester } from 'eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require('../../tools/eslint/module-boundaries.cjs');

const ROOT = join(__dirname, '..', '..');
const file = (path: string) => join(ROOT, path);
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
    {
      filename: file('apps/memex/src/main.ts'),
      code: "import { BrainApiModule } from '../../brain-api/src';",
      errors: [{ messageId: 'app' }],
    },
    {
      filename: file('libs/feature-brain/src/x.ts'),
      code: "export * from '../../../apps/brain-api/src';",
      errors: [{ messageId: 'app' }],
    },
    {
      filename: file('libs/search/src/x.ts'),
      code: "import { MemoryItemRepository } from '@memex/db';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: file('libs/db/src/x.ts'),
      code: "import { SearchService } from '@memex/feature-search';",
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: file('libs/server/src/x.ts'),
      code: "const db = require('../../db/src');",
      errors: [{ messageId: 'relative' }],
    },
    {
      filename: file('libs/feature-items/src/x.ts'),
      code: "const m = import('../../feature-brain/src/brain.service');",
      errors: [{ messageId: 'relative' }],
    },
    {
      filename: file('apps/dashboard/src/x.ts'),
      code: "import { a } from '../../../libs/db/src';",
      options: [{ relativeInto: ['layer:pure'] }],
      errors: [{ messageId: 'relative' }],
    },
  ],
});
