from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("<int:event_id>/", views.detail, name="detail"),
    path("<int:event_id>/live/", views.standings_fragment, name="live"),
    path("<int:event_id>/join/", views.join, name="join"),
    path("<int:event_id>/pause/", views.pause, name="pause"),
    path("<int:event_id>/resume/", views.resume, name="resume"),
    path("<int:event_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:event_id>/berserk/", views.berserk, name="berserk"),
]
