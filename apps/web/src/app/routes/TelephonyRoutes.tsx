/**
 * Compositions for the telephony pages (features don't import each other): the routing editor gets
 * the company's greetings and Number custom fields; blocks and number templates get the company's
 * numbers; the call flows list (number templates) gets its columns as a column preset (kind
 * `call_flows`) with the report preferences' chooser (the numbers list: NumbersRoute.tsx); the call detail drawer
 * (with the Call custom fields) opens over Activity at /calls/:callId.
 */
import { EAV_ENTITY_TYPES, formatPhone } from '@switchboard/domain';
import { useNavigate, useParams } from 'react-router';
import { ActivityPage } from '../../features/activity/components/ActivityPage';
import { BlocksPage } from '../../features/blocks/components/BlocksPage';
import { CallDrawer } from '../../features/calls/components/CallDrawer';
import { useAttributes } from '../../features/custom-fields/api/get-attributes';
import { useGreetings } from '../../features/greetings/api/get-greetings';
import { NumberTemplatesPage } from '../../features/number-templates/components/NumberTemplatesPage';
import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { NumberEditorPage } from '../../features/numbers/components/NumberEditorPage';
import { DEFAULT_TEMPLATE_COLUMNS, TEMPLATE_COLUMN_OPTIONS } from '../../features/number-templates/components/template-columns';
import { ColumnChooser, useColumnPreset } from '../../features/report-preferences';
import { CallJourney } from '../../features/tracking/components/CallJourney';
import { RequireAbility } from '../../components/RequireAbility';
import { AskAboutCall } from './CallIntelligenceRoutes';
import { VoicemailPage } from '../../features/voicemail/components/VoicemailPage';
import { useCan } from '../../lib/access';

function useNumberChoices() {
  const numbers = useCompanyNumbers();
  return (numbers.data?.data ?? []).map((n) => ({
    id: n.id,
    routes: n.routes,
    label: `${formatPhone(n.number)}${n.label && n.label !== n.national_number ? ` · ${n.label}` : ''}`,
  }));
}

export function NumberEditorRoute() {
  const greetings = useGreetings();
  const attributes = useAttributes(EAV_ENTITY_TYPES.Number);
  return (
    <RequireAbility ability="numbers.read" title="Number">
      <NumberEditorPage
        greetings={(greetings.data?.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
        attributes={attributes.data?.data ?? []}
      />
    </RequireAbility>
  );
}

export function BlocksRoute() {
  return (
    <RequireAbility ability="calls.read" title="Blocked callers">
      <Blocks />
    </RequireAbility>
  );
}

function Blocks() {
  return <BlocksPage numbers={useNumberChoices().map((n) => ({ value: String(n.id), label: n.label }))} />;
}

const TEMPLATE_KEYS = TEMPLATE_COLUMN_OPTIONS.map((o) => o.key);

/** `/number-templates`: the call flows list with its columns as a column preset of kind `call_flows`. */
export function NumberTemplatesRoute() {
  return (
    <RequireAbility ability="numbers.read" title="Number templates">
      <NumberTemplates />
    </RequireAbility>
  );
}

function NumberTemplates() {
  const preset = useColumnPreset('call_flows', { defaultColumns: DEFAULT_TEMPLATE_COLUMNS, available: TEMPLATE_KEYS });
  return (
    <NumberTemplatesPage
      numbers={useNumberChoices()}
      columns={preset.columns}
      columnTools={<ColumnChooser options={TEMPLATE_COLUMN_OPTIONS} preset={preset} />}
    />
  );
}

export function CallRoute() {
  return (
    <RequireAbility ability="calls.read" title="Call">
      <Call />
    </RequireAbility>
  );
}

function Call() {
  const { callId } = useParams();
  const navigate = useNavigate();
  const id = Number(callId);
  const attributes = useAttributes(EAV_ENTITY_TYPES.Call);
  // Activity is a report (`reports.read`); a role that reads calls without reports (a `user`, who comes from the
  // voicemail list) gets the call over its voicemail list instead of a refused report.
  const canReport = useCan('reports.read');
  return (
    <>
      {canReport ? <ActivityPage /> : <VoicemailPage />}
      <CallDrawer
        callId={Number.isInteger(id) && id > 0 ? id : null}
        onClose={() => void navigate(canReport ? '/activity' : '/voicemail')}
        attributes={attributes.data?.data ?? []}
        journey={(call) => (
          <>
            {call.isInbound ? <CallJourney callId={call.id} /> : null}
            <AskAboutCall callId={call.id} />
          </>
        )}
      />
    </>
  );
}
