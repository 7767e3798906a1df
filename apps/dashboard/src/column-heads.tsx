import type { ReactNode } from 'react';

/**
 * A column's heading: its text; `num` for a column of numbers (aligned right); `hidden` for one
 * only screen readers announce (a column of buttons).
 */
export type Column = string | { num: string } | { hidden: string };

/** A table's column headings; `lead` comes first, for a heading that is a control (select all). */
export function ColumnHeads({ columns, lead }: { columns: Column[]; lead?: ReactNode }) {
  return (
    <thead>
      <tr>
        {lead}
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : 'num' in column ? (
            <th key={column.num} scope="col" className="num">
              {column.num}
            </th>
          ) : (
            <th key={column.hidden} scope="col">
              <span className="visually-hidden">{column.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
