from django.urls import path

from . import views

app_name = "lobby"
urlpatterns = [
    path("", views.index, name="index"),
    path("", views.index, name="list"),
    path("new/", views.create, name="create"),
    path("quick/", views.quick_play, name="quick_play"),
    path("rules/", views.rules, name="rules"),
    path("join/<str:code>/", views.join, name="join"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/room/", views.room, name="room"),
    path("<int:table_id>/act/", views.act, name="act"),
    path("<int:table_id>/ready/", views.ready, name="ready"),
    path("<int:table_id>/ping/", views.ping, name="ping"),
    path("<int:table_id>/edit/", views.edit_rules, name="edit_rules"),
    path("<int:table_id>/rules/", views.table_rules, name="table_rules"),
]
