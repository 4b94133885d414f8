"""A friend's letter becomes a push to the recipient's devices where he switched it on (the
notifications app hears it through social's news), worded in each device's language."""

from __future__ import annotations

import pytest

from letters import services
from tests.letters.conftest import befriend, make_player
from tests.notifications.conftest import push_service  # noqa: F401  (a push service per test)
from tests.notifications.test_push import subscribed

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_letter_is_pushed_to_the_friend_who_asked_for_it(push_service):  # noqa: F811
    a, b = make_player("Ира"), make_player("Олег")
    befriend(a, b)
    ru = subscribed(b, push_service, lang="ru", kinds=("letter",))
    en = subscribed(b, push_service, lang="en", kinds=("letter",))
    subscribed(a, push_service, lang="ru", kinds=("letter", "friend_request"))
    services.send(a, b.pk, "сыграем?")
    from social import people

    people.request_friend(make_player("Вера"), a.pk)  # the writer's next push: a friend request, not his letter
    by_path = {r.path: r for r in push_service.wait_for(3)}
    assert set(by_path) == {f"/push/{b.pk}-ru", f"/push/{b.pk}-en", f"/push/{a.pk}-ru"}
    assert by_path[f"/push/{a.pk}-ru"].headers["topic"].startswith("friend-")
    message = ru.decrypt(by_path[f"/push/{b.pk}-ru"].body)
    assert message == {"title": "Сообщение от друга", "body": "Ира: сыграем?", "url": f"/messages/{a.pk}/",
                       "tag": f"letter-{a.pk}", "vibrate": False}
    assert en.decrypt(by_path[f"/push/{b.pk}-en"].body)["title"] == "A message from a friend"
    assert by_path[f"/push/{b.pk}-ru"].headers["topic"] == f"letter-{a.pk}"


def test_no_push_for_a_player_who_left_letters_off(push_service):  # noqa: F811
    a, b = make_player("Ира"), make_player("Олег")
    befriend(a, b)
    subscribed(b, push_service, lang="ru", kinds=("friend_request",))
    services.send(a, b.pk, "сыграем?")
    c = make_player("Вера")
    from social import people

    people.request_friend(c, b.pk)  # a kind he did switch on comes next: the letter's push never came
    (only,) = push_service.wait_for(1)
    assert only.path == f"/push/{b.pk}-ru"
    assert "letter" not in only.headers["topic"]
