from django.urls import path

from . import views

app_name = "letters"
urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("<int:player_id>/", views.conversation, name="conversation"),
    path("<int:player_id>/read/", views.read, name="read"),
    path("<int:player_id>/report/<int:letter_id>/", views.report, name="report"),
]
