import { useEffect, useRef, useState } from 'react';
import { ColumnHeads } from '../column-heads';
import { ErrorMessage, PageTitle, formatDate, useAction, useLoad } from '../components';
import { ratesPerMinute, type CounterSample } from '../lib/rates';
import { useSignedIn } from '../session-context';
import { ModelSpend } from './model-spend';

interface QueueCounts {
  name: string;
  counts: Record<string, number>;
}
interface FailedJob {
  id: string;
  name: string;
  attemptsMade: number;
  failedReason: string | null;
  finishedAt: string | null;
}
interface MetricsSummary {
  sampledAt: string;
  uptimeSeconds: number;
  ingest: Record<string, number | null>;
  enrichment: Record<string, number | null>;
}

const LABELS: Record<string, string> = {
  'ingest.eventsAccepted': 'Events accepted',
  'ingest.eventsDuplicate': 'Duplicate events',
  'ingest.enqueueFailures': 'Enqueue failures',
  'enrichment.events': 'Events enriched',
  'enrichment.windows': 'Windows enriched',
  'enrichment.items': 'Items written',
  'enrichment.rejected': 'Items rejected',
  'enrichment.fallbacks': 'LLM fallbacks',
};

const sample = (m: MetricsSummary): CounterSample => ({
  sampledAt: m.sampledAt,
  counters: Object.fromEntries([
    ...Object.entries(m.ingest).map(([k, v]) => [`ingest.${k}`, v]),
    ...Object.entries(m.enrichment).map(([k, v]) => [`enrichment.${k}`, v]),
  ]),
});

const SAMPLE_MS = 5000;

/** The BullMQ job states each queue's row counts, a column each. */
const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'];

/** Operators: queue depths, failed jobs, model spend, and ingest and enrichment rates of the serving process. */
export function HealthPage() {
  const { api } = useSignedIn();
  const queues = useLoad(() => api<{ queues: QueueCounts[] }>('/api/v2/admin/queues'), []);
  const failed = useLoad(async () => {
    const names = ['enrichment', 'hygiene', 'embedding'];
    const lists = await Promise.all(
      names.map((queue) =>
        api<{ jobs: FailedJob[] }>('/api/v2/admin/jobs', { query: { queue, state: 'failed', limit: 10 } }),
      ),
    );
    return names.flatMap((queue, i) => lists[i]!.jobs.map((job) => ({ queue, job })));
  }, []);
  const [samples, setSamples] = useState<CounterSample[]>([]);
  const [metricsError, setMetricsError] = useState<unknown>(null);
  const latest = useRef<MetricsSummary | null>(null);
  const action = useAction();

  useEffect(() => {
    let stopped = false;
    const read = async () => {
      try {
        const m = await api<MetricsSummary>('/api/v2/admin/metrics');
        latest.current = m;
        if (!stopped) setSamples((s) => [...s.slice(-1), sample(m)]);
      } catch (e) {
        if (!stopped) setMetricsError(e);
      }
    };
    void read();
    const timer = setInterval(() => void read(), SAMPLE_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api]);

  const rates = samples.length === 2 ? ratesPerMinute(samples[0]!, samples[1]!) : null;
  const current = samples[samples.length - 1];

  async function retry(queue: string, id: string) {
    if (
      await action.run(async () => {
        await api(`/api/v2/admin/jobs/${queue}/${encodeURIComponent(id)}/retry`, { body: {} });
        return `Job ${id} sent round again.`;
      })
    ) {
      void failed.reload();
      void queues.reload();
    }
  }

  return (
    <main id="main">
      <PageTitle>Health</PageTitle>
      <p>
        Every queue, job by job: <a href="/admin/queues">Bull Board</a> (it asks for the admin token as the password).
      </p>
      <section aria-labelledby="queues-title">
        <h2 id="queues-title">Queues</h2>
        <ErrorMessage error={queues.error} />
        <table>
          <ColumnHeads columns={['Queue', ...JOB_STATES.map((num) => ({ num }))]} />
          <tbody>
            {queues.data?.queues.map((q) => (
              <tr key={q.name}>
                <th scope="row">{q.name}</th>
                {JOB_STATES.map((s) => (
                  <td key={s} className="num">
                    {(q.counts[s] ?? 0).toLocaleString('en')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={() => void queues.reload()}>
          Refresh
        </button>
      </section>
      <section aria-labelledby="failed-title">
        <h2 id="failed-title">Failed jobs</h2>
        <ErrorMessage error={failed.error ?? action.error} />
        {failed.data?.length === 0 ? <p>No failed job.</p> : null}
        <ul className="plain">
          {failed.data?.map(({ queue, job }) => (
            <li key={`${queue}-${job.id}`} className="panel">
              <strong>{queue}</strong> <span className="mono">{job.id}</span> · {job.attemptsMade} attempts · failed{' '}
              {formatDate(job.finishedAt)}
              <p className="text">{job.failedReason ?? 'no reason recorded'}</p>
              <button type="button" onClick={() => void retry(queue, job.id)}>
                Retry job {job.id}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <ModelSpend />
      <section aria-labelledby="rates-title">
        <h2 id="rates-title">Ingest and enrichment</h2>
        <p className="hint">
          Counters of the process serving this page since it started
          {latest.current ? ` ${Math.round(latest.current.uptimeSeconds / 60)} min ago` : ''}; rates over the last{' '}
          {SAMPLE_MS / 1000} s. A process that does not run ingest or enrichment (brain-api alone) has none: read them
          from Prometheus (<code>/metrics</code> of each app).
        </p>
        <ErrorMessage error={metricsError} />
        <table>
          <ColumnHeads columns={['Counter', { num: 'Total' }, { num: 'Per minute' }]} />
          <tbody>
            {current
              ? Object.entries(current.counters).map(([name, value]) => (
                  <tr key={name}>
                    <th scope="row">{LABELS[name] ?? name}</th>
                    <td className="num">{value === null ? 'not in this process' : value.toLocaleString('en')}</td>
                    <td className="num">
                      {rates === null ? 'measuring…' : rates[name] === null ? '—' : rates[name]!.toFixed(1)}
                    </td>
                  </tr>
                ))
              : null}
          </tbody>
        </table>
      </section>
    </main>
  );
}
