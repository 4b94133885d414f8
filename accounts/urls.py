from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("key/", views.key_shown, name="key"),
    path("restore/", views.restore, name="restore"),
    path("profile/", views.profile, name="profile"),
    path("new-key/", views.new_key, name="new_key"),
    path("logout/", views.logout_view, name="logout"),
    path("banned/", views.banned, name="banned"),
]
