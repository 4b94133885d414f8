from django.urls import path

from . import views

app_name = "game"
urlpatterns = [
    path("<int:game_id>/", views.detail, name="detail"),
    path("<int:game_id>/leave/", views.leave, name="leave"),
    path("dev/table/", views.dev_table, name="dev_table"),  # DEBUG only (404 otherwise)
]
