"""The table settings' one registry (lobby/table_settings.py): the forms offer its values, the
services refuse anything else with its error, the model's defaults and the database constraints
are its own, and the search and the tournaments offer the same timers."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from durak_site.errors import CATALOGUE, ServiceError
from lobby import services
from lobby.forms import TableSettingsForm
from lobby.models import Table
from lobby.table_settings import SEATS, TABLE_SETTINGS, TURN_SECONDS

WRONG = {"seats_count": 7, "turn_seconds": 45, "disconnect_policy": "never", "rules_setter": "anyone",
         "start_policy": "whenever", "series_length": 2, "private": 1}


def test_every_setting_has_a_default_it_allows_and_a_refusal_in_the_catalogue():
    assert set(WRONG) == set(TABLE_SETTINGS)
    for setting in TABLE_SETTINGS.values():
        assert setting.allows(setting.default), setting.key
        assert setting.error in CATALOGUE, setting.key
        assert not setting.allows(WRONG[setting.key]), setting.key
    assert TABLE_SETTINGS["disconnect_policy"].allows(Table.DisconnectPolicy.LOSE)  # an enum member is its value
    assert not SEATS.allows(True) and not TABLE_SETTINGS["private"].allows(1)


def test_the_table_model_takes_its_defaults_from_the_registry():
    for key, setting in TABLE_SETTINGS.items():
        assert Table._meta.get_field(key).default == setting.default, key


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(WRONG))
def test_a_value_outside_the_registry_is_refused_with_its_error(make_player, key):
    with pytest.raises(ServiceError) as exc:
        services.create_table(make_player("Хост"), **{key: WRONG[key]})
    assert exc.value.code == TABLE_SETTINGS[key].error
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_form_offers_exactly_the_registry_values():
    form = TableSettingsForm(editing=True)
    for key, setting in TABLE_SETTINGS.items():
        if key == "private":
            continue
        offered = [value for value, _label in form.fields[key].choices]
        assert offered == [str(v) for v in setting.values], key
    assert form.fields["turn_seconds"].initial == str(TURN_SECONDS.default)


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_timer_or_seat_count_outside_the_registry(table):
    for field, wrong in (("turn_seconds", 45), ("seats_count", max(SEATS.values) + 1)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Table.objects.filter(pk=table.pk).update(**{field: wrong})
    for seconds in TURN_SECONDS.values:
        Table.objects.filter(pk=table.pk).update(turn_seconds=seconds)


def test_the_search_and_the_tournaments_offer_the_tables_timers():
    from social import matching, queue
    from tournaments.models import TURN_SECONDS as TOURNAMENT_TIMERS
    from tournaments.models import Tournament

    assert TURN_SECONDS.values == matching.TIMERS and SEATS.values == matching.PLAYERS
    assert queue.DEFAULTS["turn_seconds"] == matching.DEFAULT_TIMER == TURN_SECONDS.default
    assert [seconds for seconds, _label in TOURNAMENT_TIMERS] == list(TURN_SECONDS.values)
    assert Tournament._meta.get_field("turn_seconds").default == TURN_SECONDS.default
