/** Shapes of the custom-field endpoints (spec 001 §3 "Custom field (EAV attribute)"). */
export const VALUE_TYPES = ['text', 'number', 'date', 'select', 'multiselect', 'boolean'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

export interface Choice {
  id?: number;
  value: string;
  sort_order: number;
  description?: string | null;
}

export interface Attribute {
  id: number;
  entityType: number;
  name: string;
  type: ValueType;
  defaultValue: unknown;
  choices: Array<{ id: number; value: string; sort_order: number; description: string | null }>;
  companyId: number | null;
  businessUnitId: number | null;
  parentId: number | null;
  isOverridden: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CountStats {
  total: number;
  entities: number;
  companies: number;
  perValue: Array<{ value: unknown; count: number }>;
}
