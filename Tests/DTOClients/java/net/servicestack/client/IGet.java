package net.servicestack.client;

public interface IGet {}
