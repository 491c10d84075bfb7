/**
 * The favourites menu for a report or dashboard header: the person's favourite reports (optionally only those of
 * `path`), each opening its screen with its saved state, and "Manage favorites" (/favorite-reports). Props:
 * - `path`: show only favourites of this screen (e.g. '/reports'); all when absent.
 */
import { Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconSettings, IconStarFilled } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useFavoriteReports } from '../api/favorite-reports';
import { favoriteHref, screenLabel } from '../favorites';

export function FavoritesMenu({ path }: { path?: string }) {
  const navigate = useNavigate();
  const favorites = useFavoriteReports();
  const list = (favorites.data ?? []).filter((f) => f.state && (!path || f.state.path === path));
  return (
    <Menu position="bottom-end" width={280} withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconStarFilled size={16} />} rightSection={<IconChevronDown size={14} />}>
          Favorites
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {favorites.isPending ? <Menu.Label>Loading…</Menu.Label> : null}
        {!favorites.isPending && list.length === 0 ? <Menu.Label>No favorites yet</Menu.Label> : null}
        {list.map((f) => (
          <Menu.Item key={f.id} onClick={() => void navigate(favoriteHref(f.state!))}>
            <Text size="sm" truncate>
              {f.state!.name}
            </Text>
            {!path ? (
              <Text size="xs" c="dimmed">
                {screenLabel(f.state!.path)}
              </Text>
            ) : null}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item leftSection={<IconSettings size={14} />} onClick={() => void navigate('/favorite-reports')}>
          Manage favorites
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
