'use strict';
// The layering of the monorepo, read from each project's Nx tags (project.json), enforced on
// every import: pure libraries hold rules without I/O, infrastructure libraries hold I/O and
// framework wiring, feature libraries hold a feature's Nest module, apps compose features.
const fs = require('node:fs');
const path = require('node:path');

/** Which layers each layer may import. An app never imports another app. */
const ALLOWED = {
  'layer:pure': ['layer:pure'],
  'layer:infra': ['layer:pure', 'layer:infra'],
  'layer:feature': ['layer:pure', 'layer:infra', 'layer:feature'],
  'layer:app': ['layer:pure', 'layer:infra', 'layer:feature'],
};

const cache = new Map();

/** Every project under apps/ and libs/ by its root ("libs/db"), with its layer tag. */
function projectsOf(root) {
  if (cache.has(root)) return cache.get(root);
  const projects = new Map();
  for (const dir of ['apps', 'libs']) {
    for (const name of fs.readdirSync(path.join(root, dir))) {
      const file = path.join(root, dir, name, 'project.json');
      if (!fs.existsSync(file)) continue;
      const { tags = [] } = JSON.parse(fs.readFileSync(file, 'utf8'));
      projects.set(`${dir}/${name}`, { name, layer: tags.find((tag) => tag.startsWith('layer:')) });
    }
  }
  cache.set(root, projects);
  return projects;
}

/** The project root ("apps/cli") a path inside the repository belongs to, if any. */
function projectRootOf(root, file) {
  const [dir, name] = path.relative(root, file).split(path.sep);
  return dir === 'apps' || dir === 'libs' ? `${dir}/${name}` : undefined;
}

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layering given by the projects’ layer tags' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          // Layers a project may reach by relative path: a browser bundle has no @memex aliases.
          relativeInto: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      untagged: 'Project {{project}} has no layer tag in its project.json.',
      relative: 'Import {{target}} by its alias @memex/{{name}}, not by a relative path into another project.',
      app: 'Apps never import other apps ({{target}}): move what they share into a feature library.',
      layer: 'A {{from}} project ({{project}}) may not import a {{to}} project ({{target}}).',
    },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const relativeInto = context.options[0]?.relativeInto ?? [];
    const projects = projectsOf(root);
    const fromRoot = projectRootOf(root, context.filename);
    const from = fromRoot && projects.get(fromRoot);
    if (!from) return {};

    function check(node, source) {
      if (typeof source !== 'string') return;
      let targetRoot;
      if (source.startsWith('@memex/')) targetRoot = `libs/${source.slice('@memex/'.length).split('/')[0]}`;
      else if (source.startsWith('.'))
        targetRoot = projectRootOf(root, path.resolve(path.dirname(context.filename), source));
      if (!targetRoot || targetRoot === fromRoot) return;
      const target = projects.get(targetRoot);
      if (!target) return;
      const data = { project: fromRoot, target: targetRoot, name: target.name, from: from.layer, to: target.layer };
      if (!from.layer || !target.layer)
        return context.report({ node, messageId: 'untagged', data: { project: from.layer ? targetRoot : fromRoot } });
      if (source.startsWith('.') && target.layer !== 'layer:app' && !relativeInto.includes(target.layer))
        return context.report({ node, messageId: 'relative', data });
      if (target.layer === 'layer:app') return context.report({ node, messageId: 'app', data });
      if (!ALLOWED[from.layer].includes(target.layer)) context.report({ node, messageId: 'layer', data });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.value),
      CallExpression: (node) =>
        node.callee.type === 'Identifier' && node.callee.name === 'require' && check(node, node.arguments[0]?.value),
    };
  },
};
