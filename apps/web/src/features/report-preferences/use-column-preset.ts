/**
 * `useColumnPreset(kind, { defaultColumns, available })`: the columns a report table of one of the 14 report kinds
 * (spec 001 "Column preset") shows, and their saving as presets.
 *
 * - `columns`: the chosen preset's columns, else the person's unsaved choice, else `defaultColumns` — filtered to
 *   `available` when given. The chosen preset and the unsaved choice are remembered per company and kind in this
 *   browser (localStorage), so the table looks the same after a reload.
 * - `enabled: false` defers asking for the presets (a table not shown yet); everything else works on what is known.
 * - `setColumns` changes the columns now (unsaved, `dirty` until saved); `saveAs(name)` creates a company preset
 *   with them and selects it; `saveActive()` writes them into the selected preset; `remove(id)` deletes a preset;
 *   `selectPreset(null)` goes back to the default columns.
 * Mutations resolve with the server's message ("Column preset was successfully created" …) and show it.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { notify } from '../../lib/notify';
import { useCompanyId } from '../../lib/session';
import { useColumnPresets, useDeleteColumnPreset, useSaveColumnPreset } from './api/column-presets';
import type { ColumnPreset, ColumnPresetKind } from './types';

export interface ColumnPresetOptions {
  /** The columns shown when no preset is chosen, in order. */
  defaultColumns: string[];
  /** Every column key the table knows; saved columns outside it are ignored. */
  available?: string[];
  /**
   * False while the table is not on screen (e.g. an export dialog still closed): the presets are not asked for yet;
   * the columns are the remembered choice or the defaults. Default true.
   */
  enabled?: boolean;
}

export interface ColumnPresetState {
  kind: ColumnPresetKind;
  /** The columns to show, in order. */
  columns: string[];
  /** The kind's presets (company's and business unit's). */
  presets: ColumnPreset[];
  /** The selected preset, or null for the default columns. */
  active: ColumnPreset | null;
  /** The columns differ from the selected preset's (or from the defaults). */
  dirty: boolean;
  isLoading: boolean;
  setColumns: (columns: string[]) => void;
  selectPreset: (id: number | null) => void;
  saveAs: (name: string) => Promise<ColumnPreset>;
  saveActive: () => Promise<void>;
  remove: (id: number) => Promise<void>;
  /** A save or remove is under way. */
  saving: boolean;
}

interface Stored {
  presetId: number | null;
  columns: string[] | null;
}

const storageKey = (companyId: number | null, kind: string) => `switchboard.columns.${companyId ?? 'none'}.${kind}`;

function readStored(key: string): Stored {
  const text = window.localStorage.getItem(key);
  if (!text) return { presetId: null, columns: null };
  try {
    const v = JSON.parse(text) as Partial<Stored>;
    return {
      presetId: typeof v.presetId === 'number' ? v.presetId : null,
      columns: Array.isArray(v.columns) ? v.columns.filter((c): c is string => typeof c === 'string') : null,
    };
  } catch (e) {
    if (e instanceof SyntaxError) return { presetId: null, columns: null };
    throw e;
  }
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

export function useColumnPreset(kind: ColumnPresetKind, options: ColumnPresetOptions): ColumnPresetState {
  const companyId = useCompanyId();
  const key = storageKey(companyId, kind);
  const presetsQuery = useColumnPresets(kind, options.enabled ?? true);
  const save = useSaveColumnPreset(kind);
  const del = useDeleteColumnPreset();
  const [stored, setStored] = useState<Stored>(() => readStored(key));
  useEffect(() => setStored(readStored(key)), [key]);
  const persist = useCallback(
    (next: Stored) => {
      setStored(next);
      window.localStorage.setItem(key, JSON.stringify(next));
    },
    [key],
  );

  const presets = useMemo(() => presetsQuery.data ?? [], [presetsQuery.data]);
  const active = presets.find((p) => p.id === stored.presetId) ?? null;
  const availableKey = options.available?.join('\u0000');
  const defaultsKey = options.defaultColumns.join('\u0000');
  const clean = useCallback((cols: string[]) => (options.available ? cols.filter((c) => options.available!.includes(c)) : cols), [availableKey]);
  const base = useMemo(() => clean(active ? active.data.columns : options.defaultColumns), [active, clean, defaultsKey]);
  const chosen = stored.columns ? clean(stored.columns) : null;
  const columns = chosen && chosen.length ? chosen : base.length ? base : options.defaultColumns;
  const dirty = chosen !== null && !same(chosen, base);

  return {
    kind,
    columns,
    presets,
    active,
    dirty,
    isLoading: presetsQuery.isPending && companyId !== null && (options.enabled ?? true),
    saving: save.isPending || del.isPending,
    setColumns: (cols) => persist({ presetId: stored.presetId, columns: cols }),
    selectPreset: (id) => persist({ presetId: id, columns: null }),
    saveAs: async (name) => {
      const r = await save.mutateAsync({ name, data: { columns } });
      notify.success(r.message);
      persist({ presetId: r.data.id, columns: null });
      return r.data;
    },
    saveActive: async () => {
      if (!active) return;
      const r = await save.mutateAsync({ id: active.id, data: { columns, sort: active.data.sort } });
      notify.success(r.message);
      persist({ presetId: active.id, columns: null });
    },
    remove: async (id) => {
      const r = await del.mutateAsync(id);
      notify.success(r.message);
      if (stored.presetId === id) persist({ presetId: null, columns: stored.columns });
    },
  };
}
