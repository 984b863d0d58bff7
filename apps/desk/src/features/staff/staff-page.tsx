import PersonAddIcon from '../../lib/icons/person-add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { staffRoles, type StaffInvitation, type StaffMember, type StaffRole } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText } from '../../lib/field-errors';
import { formatPhone, localeOf } from '../../lib/format';
import { useNotify } from '../../lib/notify';
import { OwnersOnly } from '../../lib/owners-only';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { sessionQueryKey, useClinic } from '../../lib/session';
import { cancelInvitation } from './api/invitations';
import { staffQueryKey, useStaffList } from './api/list-staff';
import { changeRole, removeMember } from './api/members';
import { InviteDialog } from './components/invite-dialog';
import { Section } from '../../lib/section';

/** `/desk/staff` (owners): who works at the clinic in the desk, and who is invited. */
export function StaffPage() {
  return (
    <OwnersOnly>
      <StaffManagement />
    </OwnersOnly>
  );
}

function StaffManagement() {
  const { t, i18n } = useTranslation('staff');
  const id = useId();
  const { session } = useClinic();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const staff = useStaffList();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  const [cancelling, setCancelling] = useState<StaffInvitation | null>(null);
  const [changing, setChanging] = useState<number | null>(null);

  const day = (iso: string) =>
    new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'medium' }).format(new Date(iso));
  const dayAndTime = (iso: string) =>
    new Intl.DateTimeFormat(localeOf(i18n.language), {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(iso));
  const refresh = () => queryClient.invalidateQueries({ queryKey: staffQueryKey });
  const isMe = (member: StaffMember) => member.account_id === session.account.id;

  async function setRole(member: StaffMember, role: StaffRole) {
    setChanging(member.id);
    try {
      await changeRole(member.id, role);
      notify(t('members.roleChanged', { name: member.name, role: t(`common:roles.${role}`) }));
      // My own role changed: the desk's navigation and this page follow the session's.
      if (isMe(member)) await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    } catch (failure) {
      notify(errorText(t, failure), 'error');
    } finally {
      setChanging(null);
      await refresh();
    }
  }

  const actions = (
    <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setInviting(true)}>
      {t('invite.open')}
    </Button>
  );

  if (staff.isPending) {
    return (
      <Page title={t('title')} actions={actions}>
        <PageLoading />
      </Page>
    );
  }

  const members = staff.data?.members ?? [];
  const invitations = staff.data?.invitations ?? [];
  const owners = members.filter((m) => m.role === 'owner');
  const lastOwner = owners.length === 1 ? owners[0] : undefined;
  const lastOwnerNote = `${id}-last-owner`;

  return (
    <Page title={t('title')} actions={actions}>
      <Stack spacing={3}>
        {staff.isError ? <Alert severity="error">{errorText(t, staff.error)}</Alert> : null}
        <Section title={t('members.title')} id={`${id}-members`}>
          {lastOwner ? (
            <Alert severity="info" id={lastOwnerNote} sx={{ mb: 2 }}>
              {t('members.lastOwner', { name: lastOwner.name })}
            </Alert>
          ) : null}
          <TableContainer>
            <Table size="small" aria-labelledby={`${id}-members`}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('members.name')}</TableCell>
                  <TableCell>{t('members.phone')}</TableCell>
                  <TableCell>{t('members.role')}</TableCell>
                  <TableCell>{t('members.since')}</TableCell>
                  <TableCell>
                    <span className="visually-hidden">{t('members.actions')}</span>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {members.map((member) => {
                  const locked = member.id === lastOwner?.id;
                  return (
                    <TableRow key={member.id}>
                      <TableCell component="th" scope="row">
                        {member.name}
                        {isMe(member) ? (
                          <Typography component="span" color="text.secondary">
                            {' '}
                            {t('members.you')}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>
                        <bdi>{formatPhone(member.phone)}</bdi>
                      </TableCell>
                      <TableCell>
                        <TextField
                          select
                          size="small"
                          value={member.role}
                          onChange={(e) => void setRole(member, e.target.value as StaffRole)}
                          disabled={locked || changing === member.id}
                          fullWidth={false}
                          sx={{ minWidth: 130 }}
                          slotProps={{
                            select: { native: true },
                            htmlInput: {
                              'aria-label': t('members.roleOf', { name: member.name }),
                              'aria-describedby': locked ? lastOwnerNote : undefined,
                            },
                          }}
                        >
                          {staffRoles.map((role) => (
                            <option key={role} value={role}>
                              {t(`common:roles.${role}`)}
                            </option>
                          ))}
                        </TextField>
                      </TableCell>
                      <TableCell>{day(member.created_at)}</TableCell>
                      <TableCell sx={{ textAlign: 'end' }}>
                        <Button
                          color="error"
                          onClick={() => setRemoving(member)}
                          disabled={locked}
                          aria-describedby={locked ? lastOwnerNote : undefined}
                        >
                          {t('members.remove')}
                          <span className="visually-hidden"> {member.name}</span>
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </Section>

        <Section title={t('invitations.title')} id={`${id}-invitations`}>
          {invitations.length === 0 ? (
            <Typography>{t('invitations.none')}</Typography>
          ) : (
            <TableContainer>
              <Table size="small" aria-labelledby={`${id}-invitations`}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('members.name')}</TableCell>
                    <TableCell>{t('members.phone')}</TableCell>
                    <TableCell>{t('members.role')}</TableCell>
                    <TableCell>{t('invitations.expires')}</TableCell>
                    <TableCell>
                      <span className="visually-hidden">{t('members.actions')}</span>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {invitations.map((invitation) => (
                    <TableRow key={invitation.id}>
                      <TableCell component="th" scope="row">
                        {invitation.name}
                      </TableCell>
                      <TableCell>
                        <bdi>{formatPhone(invitation.phone)}</bdi>
                      </TableCell>
                      <TableCell>{t(`common:roles.${invitation.role}`)}</TableCell>
                      <TableCell>{dayAndTime(invitation.expires_at)}</TableCell>
                      <TableCell sx={{ textAlign: 'end' }}>
                        <Button color="error" onClick={() => setCancelling(invitation)}>
                          {t('invitations.cancel')}
                          <span className="visually-hidden"> {invitation.name}</span>
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </Section>
      </Stack>

      <InviteDialog
        open={inviting}
        onClose={() => setInviting(false)}
        onInvited={() => void refresh()}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('members.removeTitle', { name: removing?.name ?? '' })}
        body={
          removing && isMe(removing)
            ? t('members.removeSelfBody')
            : t('members.removeBody', { name: removing?.name ?? '' })
        }
        confirmLabel={t('members.removeConfirm')}
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await removeMember(removing.id);
          notify(t('members.removed', { name: removing.name }));
          if (isMe(removing)) {
            // No longer at this clinic: the desk starts again with the session as it now is.
            await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
            void navigate('/', { replace: true });
            return;
          }
          await refresh();
        }}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title={t('invitations.cancelTitle')}
        body={t('invitations.cancelBody', { name: cancelling?.name ?? '' })}
        confirmLabel={t('invitations.cancelConfirm')}
        destructive
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          await cancelInvitation(cancelling.id);
          notify(t('invitations.cancelled', { name: cancelling.name }));
          await refresh();
        }}
      />
    </Page>
  );
}
