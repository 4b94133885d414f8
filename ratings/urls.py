from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("club/", views.club, name="club"),
    path("players/<str:nick>/", views.profile, name="profile"),
    path("players/<str:nick>/games/", views.history, name="history"),
    path("games/<int:game_id>/", views.game_replay, name="replay"),
    path("series/<int:table_id>/", views.series, name="series"),
    path("series/<int:table_id>/leader/", views.choose_leader, name="choose_leader"),
]
