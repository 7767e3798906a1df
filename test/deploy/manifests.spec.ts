import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The deployment files, checked without a cluster or a Docker engine: every Kubernetes
 * manifest validated against the Kubernetes schemas (kubernetes-models), the overlays built
 * the way kustomize builds them (resources plus JSON patches) and validated too, and the
 * properties operators rely on: probes, resources, grace periods, Services, routing, secrets.
 */

const ROOT = join(__dirname, '..', '..');
const K8S = join(ROOT, 'k8s');
const APPS = ['ingest-api', 'brain-api', 'enrichment-worker', 'hygiene-worker'];

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : [],
  );
}

function docsOf(file: string): Doc[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
    return d.toJS() as Doc;
  });
}

/** Validates one resource against its Kubernetes schema; throws with the schema's complaint. */
function validate(doc: Doc): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const models = require(`kubernetes-models/${doc.apiVersion}`) as Record<string, new (d: Doc) => { validate(): void }>;
  const Model = models[doc.kind];
  if (!Model) throw new Error(`no schema for ${doc.apiVersion} ${doc.kind}`);
  new Model(doc).validate();
}

/** JSON-pointer operations kustomize applies for inline patches (replace, add, remove). */
function applyPatch(doc: Doc, ops: Array<{ op: string; path: string; value?: unknown }>): void {
  for (const { op, path, value } of ops) {
    const keys = path.split('/').slice(1);
    const last = keys.pop()!;
    const parent = keys.reduce<Doc>((node, key) => node[key], doc);
    if (op === 'remove') delete parent[last];
    else if (op === 'replace' && !(last in parent)) throw new Error(`replace of missing ${path}`);
    else parent[last] = value;
  }
}

/** A kustomization's resources, patched: what `kubectl apply -k` would send. */
function build(dir: string): Doc[] {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Doc;
  const docs: Doc[] = (kustomization.resources as string[]).flatMap((resource) => {
    const path = join(dir, resource);
    if (!existsSync(path)) throw new Error(`${relative(ROOT, dir)}: missing resource ${resource}`);
    return existsSync(join(path, 'kustomization.yaml')) ? build(path) : docsOf(path);
  });
  for (const { target, patch } of (kustomization.patches ?? []) as Array<{ target: Doc; patch: string }>) {
    const matched = docs.filter(
      (d) => d.kind === target.kind && (!target.name || new RegExp(`^(${target.name})$`).test(d.metadata.name)),
    );
    if (matched.length === 0) throw new Error(`${relative(ROOT, dir)}: a patch matches nothing`);
    for (const doc of matched) applyPatch(doc, parse(patch) as never);
  }
  return docs;
}

/** Prometheus's own configuration, beside the manifests: not a Kubernetes resource. */
const PROMETHEUS_K8S = join(K8S, 'prometheus', 'scrape-configs.yaml');
const manifests = yamlFiles(K8S).filter((f) => !f.endsWith('kustomization.yaml') && f !== PROMETHEUS_K8S);
const overlays = readdirSync(join(K8S, 'overlays'));

describe('Kubernetes manifests', () => {
  it.each(manifests.map((f) => relative(ROOT, f)))('%s is valid against the Kubernetes schemas', (file) => {
    const docs = docsOf(join(ROOT, file));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) validate(doc);
  });

  it.each(overlays)('overlay %s builds, and what it builds is valid', (overlay) => {
    const docs = build(join(K8S, 'overlays', overlay));
    for (const doc of docs) validate(doc);
    expect(docs.filter((d) => d.kind === 'Deployment').map((d) => d.metadata.name)).toEqual(APPS);
  });

  describe.each(['base', ...overlays.map((o) => `overlays/${o}`)])('%s', (dir) => {
    const docs = build(join(K8S, dir));
    const of = (kind: string) => docs.filter((d) => d.kind === kind);
    const config = of('ConfigMap').find((d) => d.metadata.name === 'memex-config')!;

    it('has every app as its own Deployment, with probes, resources and a grace period above its shutdown timeout', () => {
      for (const app of APPS) {
        const deployment = of('Deployment').find((d) => d.metadata.name === app);
        expect(deployment).toBeDefined();
        const pod = deployment!.spec.template.spec;
        const container = pod.containers.find((c: Doc) => c.name === app);
        expect(container.env).toContainEqual({ name: 'APP', value: app });
        expect(container.livenessProbe?.httpGet?.path).toBe('/health/live');
        expect(container.readinessProbe?.httpGet?.path).toBe('/health/ready');
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          expect({ name: c.name, requests: c.resources?.requests, limits: c.resources?.limits }).toEqual({
            name: c.name,
            requests: { cpu: expect.anything(), memory: expect.anything() },
            limits: { cpu: expect.anything(), memory: expect.anything() },
          });
        }
        const shutdownMs = Number(
          container.env.find((e: Doc) => e.name === 'SHUTDOWN_TIMEOUT_MS')?.value ?? config.data.SHUTDOWN_TIMEOUT_MS,
        );
        expect(shutdownMs).toBeGreaterThan(0);
        expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs);
        expect(pod.securityContext.runAsNonRoot).toBe(true);
      }
      // A model call must fit in the worker's drain, or a stopping worker abandons its window.
      const worker = of('Deployment').find((d) => d.metadata.name === 'enrichment-worker')!;
      const env = Object.fromEntries(
        worker.spec.template.spec.containers[0].env.map((e: Doc) => [e.name, Number(e.value)]),
      ) as Record<string, number>;
      expect(env.SHUTDOWN_TIMEOUT_MS).toBeGreaterThan(env.LLM_TIMEOUT_MS!);
    });

    it('gives every app a Service that selects its pods and targets its http port', () => {
      for (const deployment of of('Deployment')) {
        const labels = deployment.spec.template.metadata.labels as Record<string, string>;
        const ports = deployment.spec.template.spec.containers.flatMap((c: Doc) => c.ports.map((p: Doc) => p.name));
        const service = of('Service').find((s) =>
          Object.entries(s.spec.selector as Record<string, string>).every(([k, v]) => labels[k] === v),
        );
        expect({ app: deployment.metadata.name, service: service?.metadata.name }).toEqual({
          app: deployment.metadata.name,
          service: deployment.metadata.name,
        });
        expect(ports).toContain(service!.spec.ports[0].targetPort);
      }
    });

    it('routes events and sessions to ingest-api and the rest to brain-api', () => {
      const [ingress] = of('Ingress');
      const paths = ingress!.spec.rules[0].http.paths.map((p: Doc) => [p.path, p.backend.service.name]);
      expect(paths).toEqual([
        ['/api/v2/events', 'ingest-api'],
        ['/api/v2/sessions', 'ingest-api'],
        ['/', 'brain-api'],
      ]);
      const services = of('Service').map((s) => s.metadata.name);
      for (const [, backend] of paths) expect(services).toContain(backend);
    });

    it('scales each app on its own and keeps disruption budgets that match its pods', () => {
      const deployments = of('Deployment').map((d) => d.metadata.name);
      expect(
        of('HorizontalPodAutoscaler')
          .map((h) => h.spec.scaleTargetRef.name)
          .sort(),
      ).toEqual([...APPS].sort());
      for (const hpa of of('HorizontalPodAutoscaler')) {
        expect(deployments).toContain(hpa.spec.scaleTargetRef.name);
        expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
      }
      for (const pdb of of('PodDisruptionBudget')) {
        const deployment = of('Deployment').find((d) => d.metadata.name === pdb.metadata.name)!;
        expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
        // A budget that allows no eviction of a lone replica would block every node drain.
        if (pdb.spec.minAvailable !== undefined)
          expect(deployment.spec.replicas).toBeGreaterThan(pdb.spec.minAvailable);
      }
    });

    it('limits failed authentication per client address, read from the Ingress controller', () => {
      expect(config.data).toMatchObject({ AUTH_RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '1' });
    });

    it('runs migrations in a Job and makes apps wait for them', () => {
      const [job] = of('Job');
      expect(job!.spec.template.spec.containers[0].env).toContainEqual({ name: 'APP', value: 'migrate' });
      expect(config.data.MIGRATE_ON_START).toBe('false');
      for (const deployment of of('Deployment')) {
        expect(deployment.spec.template.spec.initContainers[0].command).toContain('--wait');
      }
    });

    it('commits no secret: secrets come from the memex-secrets Secret the operator creates', () => {
      expect(of('Secret')).toEqual([]);
      const secretish = /KEY|TOKEN|PASSWORD|SECRET|DATABASE_URL|REDIS_URL/;
      for (const key of Object.keys(config.data)) expect(key).not.toMatch(secretish);
      for (const workload of [...of('Deployment'), ...of('Job'), ...of('StatefulSet')]) {
        const pod = workload.spec.template.spec;
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          for (const e of c.env ?? []) {
            if (secretish.test(e.name)) expect(e.valueFrom?.secretKeyRef?.name).toBe('memex-secrets');
          }
          for (const from of c.envFrom ?? []) if (from.secretRef) expect(from.secretRef.name).toBe('memex-secrets');
        }
      }
    });
  });
});

describe('docker-compose.yml', () => {
  // Compose applies YAML merge keys (`<<:`), as docker compose does.
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Doc;
  const services = compose.services as Record<string, Doc>;

  it('runs every app as its own container, healthy, after the migration job and healthy datastores', () => {
    for (const app of APPS) {
      const service = services[app]!;
      expect(service.environment.APP).toBe(app);
      expect(service.environment.MIGRATE_ON_START).toBe('false');
      expect(service.healthcheck.test.join(' ')).toContain('/health/ready');
      expect(service.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        qdrant: { condition: 'service_healthy' },
      });
    }
    expect(services.migrate!.environment.APP).toBe('migrate');
    expect(services.migrate!.restart).toBe('no');
    for (const store of ['postgres', 'redis', 'qdrant', 'edge']) expect(services[store]!.healthcheck).toBeDefined();
  });

  it('keeps Redis from evicting queue keys and persists it, on named volumes', () => {
    const redis = services.redis!.command.join(' ');
    expect(redis).toContain('--maxmemory-policy noeviction');
    expect(redis).toContain('--appendonly yes');
    expect(Object.keys(compose.volumes as Doc).sort()).toEqual([
      'postgres-data',
      'prometheus-data',
      'qdrant-data',
      'redis-data',
    ]);
    for (const store of ['postgres', 'redis', 'qdrant']) {
      expect(services[store]!.volumes[0]).toMatch(/^[a-z-]+-data:\//);
    }
  });

  it('limits failed authentication per client address, which the edge forwards', () => {
    for (const app of APPS) {
      expect(services[app]!.environment).toMatchObject({ AUTH_RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '1' });
    }
    expect(compose.configs['edge-routes'].content).toContain(
      'proxy_set_header X-Forwarded-For $$proxy_add_x_forwarded_for;',
    );
  });

  it('routes like the Ingress at one address', () => {
    const routes = compose.configs['edge-routes'].content as string;
    expect(routes).toMatch(/location \/api\/v2\/events \{ proxy_pass http:\/\/ingest-api:8080; \}/);
    expect(routes).toMatch(/location \/api\/v2\/sessions \{ proxy_pass http:\/\/ingest-api:8080; \}/);
    expect(routes).toMatch(/location \/ \{ proxy_pass http:\/\/brain-api:8080;/);
  });
});

/** A scrape job as Prometheus reads it: /metrics answers only a Bearer METRICS_TOKEN or the admin token. */
function expectAuthorizedScrape(job: Doc): void {
  expect(job.authorization?.type).toBe('Bearer');
  expect(job.authorization.credentials ?? job.authorization.credentials_file).toEqual(expect.any(String));
}

describe('Prometheus scrape configurations', () => {
  it('scrape every app of compose with the metrics token (or the admin token), off the default profile', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Doc;
    const prometheus = (compose.services as Record<string, Doc>).prometheus!;
    expect(prometheus.profiles).toEqual(['monitoring']);
    const config = parse(compose.configs['prometheus-scrape'].content as string) as Doc;
    const [job] = config.scrape_configs as Doc[];
    expectAuthorizedScrape(job!);
    expect(job!.authorization.credentials).toBe('${METRICS_TOKEN:-${MEMEX_ADMIN_TOKEN:-}}');
    expect(job!.static_configs[0].targets).toEqual(APPS.map((app) => `${app}:8080`));
    for (const app of APPS) {
      expect((compose.services as Record<string, Doc>)[app]!.environment.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
    }
  });

  it('scrape every Memex pod in Kubernetes with the metrics token, on the path and port its annotations name', () => {
    const [job, ...others] = (parse(readFileSync(PROMETHEUS_K8S, 'utf8')) as Doc).scrape_configs as Doc[];
    expect(others).toEqual([]);
    expectAuthorizedScrape(job!);
    expect(job!.authorization.credentials_file).toMatch(/METRICS_TOKEN$/);
    const keeps = (job!.relabel_configs as Doc[]).filter((r) => r.action === 'keep');
    expect(keeps.map((r) => [r.source_labels[0], r.regex])).toEqual([
      ['__meta_kubernetes_pod_label_app_kubernetes_io_part_of', 'memex'],
      ['__meta_kubernetes_pod_annotation_prometheus_io_scrape', 'true'],
    ]);
    for (const app of APPS) {
      const pod = docsOf(join(K8S, 'base', `${app}.yaml`)).find((d) => d.kind === 'Deployment')!.spec.template.metadata;
      expect(pod.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' });
    }
  });
});

describe('Dockerfile and entry points', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

  it('builds in stages and runs production dependencies only, as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(3);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/npm ci(?! --omit=dev)/);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/dist\/apps\/\$\{APP\}\/src\/main\.js/);
  });

  it.each([...APPS, 'migrate'])('%s has an entry point and an npm start script', (app) => {
    expect(existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    expect(scripts[`start:${app}`]).toContain(`dist/apps/${app}/src/main.js`);
  });

  it('copies only what the build needs into the image', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.memex', '.git']));
    expect(dirname(join(ROOT, 'Dockerfile'))).toBe(ROOT);
  });
});
