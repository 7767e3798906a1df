import type { UsageView } from '../../../../libs/domain/src/usage-api';
import { ColumnHeads } from '../column-heads';
import { ErrorMessage, useLoad } from '../components';
import { useSignedIn } from '../session-context';

const DAYS_SHOWN = 7;

const tokens = (n: number) => n.toLocaleString('en');
const dollars = (n: number | null) => (n === null ? 'unpriced' : `$${n.toFixed(4)}`);

/** Spent and left of one daily budget, in tokens or in dollars; a budget of 0 is none. */
function budgetLine(spent: number | null, budget: number, left: number | null, unit: 'token' | 'cost'): string {
  const amount = unit === 'cost' ? dollars : (n: number | null) => tokens(n ?? 0);
  return budget === 0
    ? `${amount(spent)} (no daily ${unit} budget)`
    : `${amount(spent)} of ${unit === 'cost' ? `$${budget}` : tokens(budget)} (${amount(left)} left)`;
}

/** The project's model spend today against its daily budgets, and the last days by engine (GET /api/v2/usage). */
export function ModelSpend() {
  const { api } = useSignedIn();
  const usage = useLoad(() => api<UsageView>('/api/v2/usage', { query: { days: DAYS_SHOWN } }), []);
  const u = usage.data;
  return (
    <section aria-labelledby="spend-title">
      <h2 id="spend-title">Model spend</h2>
      <ErrorMessage error={usage.error} />
      {u ? (
        <>
          <p>
            Engine <strong>{u.engine.name}</strong>
            {u.engine.model ? (
              <>
                {' '}
                with <span className="mono">{u.engine.model}</span>
              </>
            ) : (
              ' (no model configured)'
            )}
            .{' '}
            {u.today.spent
              ? `Today's ${u.today.spent === 'daily-token-budget' ? 'token' : 'cost'} budget is spent: windows go to the local engine until midnight UTC.`
              : null}
          </p>
          <dl className="facts">
            <dt>Tokens today ({u.today.day})</dt>
            <dd>{budgetLine(u.today.tokens, u.budget.dailyTokens, u.today.left.tokens, 'token')}</dd>
            <dt>Cost today</dt>
            <dd>{budgetLine(u.today.costUsd, u.budget.dailyCostUsd, u.today.left.costUsd, 'cost')}</dd>
          </dl>
          {u.days.length === 0 ? (
            <p>No model calls in the last {DAYS_SHOWN} days.</p>
          ) : (
            <table>
              <caption>Last {DAYS_SHOWN} days</caption>
              <ColumnHeads columns={['Day', 'Engine', { num: 'Calls' }, { num: 'Tokens' }, { num: 'Cost' }]} />
              <tbody>
                {u.days.map((d) => (
                  <tr key={`${d.day}-${d.engine}`}>
                    <th scope="row">{d.day}</th>
                    <td>{d.engine}</td>
                    <td className="num">{tokens(d.calls)}</td>
                    <td className="num">{tokens(d.tokens)}</td>
                    <td className="num">{dollars(d.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}
