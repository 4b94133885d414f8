from django.urls import path

from analysis import views

app_name = "analysis"
urlpatterns = [
    path("games/<int:game_id>/", views.page, name="page"),
    path("games/<int:game_id>/request/", views.request_view, name="request"),
    path("games/<int:game_id>/progress/", views.progress, name="progress"),
    path("settings/", views.settings_view, name="settings"),
]
